//! The workspace's shape: no import cycle between the modules of any crate, no source file
//! over [`MAX_LINES`] lines, and no crate with a budget in [`CRATE_BUDGETS`] at or over it.
//!
//! What fails today is listed in [`CYCLE_EXCEPTIONS`] and [`LENGTH_EXCEPTIONS`]; an entry there
//! that no longer fails fails the test too, so each is removed when its fix lands.
//!
//! The module graph (tests/shape/modules.rs says how it is read) has one node per file and an
//! edge where a file's code names another module of the same crate, through `use`
//! declarations or paths in code; `mod x;` declarations are not edges and `#[cfg(test)]` code
//! is left out.

use std::path::{Path, PathBuf};

mod cycles;
mod modules;

use cycles::{cycle_through, cyclic_components};
use modules::ModuleGraph;

/// The most lines a source file may have.
const MAX_LINES: usize = 1500;

/// Import cycles that exist today: the crate root's folder and the files of the cycle (one
/// strongly connected component of the module graph), sorted.
const CYCLE_EXCEPTIONS: &[(&str, &[&str])] = &[];

/// Source files over [`MAX_LINES`] today.
const LENGTH_EXCEPTIONS: &[&str] = &[];

/// Crates whose `src/` (in-file tests included) must stay under a number of lines: the crate's
/// folder and its budget.
const CRATE_BUDGETS: &[(&str, usize)] = &[("crates/polyasm-lima", 10_000)];

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// Every crate root whose modules are checked.
fn crate_roots() -> Vec<PathBuf> {
    modules::workspace_roots(Path::new(ROOT))
}

/// The `*.rs` files under `dir`, at any depth.
fn rust_files(dir: &Path, into: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries {
        let path = entry.expect("a readable folder entry").path();
        if path.is_dir() {
            rust_files(&path, into);
        } else if path.extension().is_some_and(|e| e == "rs") {
            into.push(path);
        }
    }
}

/// Every source file the length check reads: `*.rs` under `src/`, `tests/`, `crates/*/src/`
/// and `crates/*/tests/`, relative to the workspace root.
fn source_files() -> Vec<String> {
    let root = Path::new(ROOT);
    let mut files = Vec::new();
    rust_files(&root.join("src"), &mut files);
    rust_files(&root.join("tests"), &mut files);
    for entry in std::fs::read_dir(root.join("crates")).expect("the workspace has a crates folder") {
        let dir = entry.expect("a readable folder entry").path();
        rust_files(&dir.join("src"), &mut files);
        rust_files(&dir.join("tests"), &mut files);
    }
    let mut names: Vec<String> = files
        .iter()
        .map(|f| f.strip_prefix(root).expect("under the root").display().to_string())
        .collect();
    names.sort();
    names
}

/// What is wrong with the cycles found, against the exceptions: one line per problem.
fn cycle_problems(found: &[(String, Vec<String>, String)], exceptions: &[(&str, &[&str])]) -> Vec<String> {
    let mut problems = Vec::new();
    for (krate, files, cycle) in found {
        let excepted = exceptions
            .iter()
            .any(|(c, f)| c == krate && f.iter().copied().eq(files.iter().map(String::as_str)));
        if !excepted {
            problems.push(format!(
                "{krate}: the modules {} import each other: {cycle}",
                files.join(", ")
            ));
        }
    }
    for (krate, files) in exceptions {
        let still = found
            .iter()
            .any(|(c, f, _)| c == krate && files.iter().copied().eq(f.iter().map(String::as_str)));
        if !still {
            problems.push(format!(
                "{krate}: the excepted cycle of {} is gone (or changed): update CYCLE_EXCEPTIONS",
                files.join(", ")
            ));
        }
    }
    problems
}

/// Every import cycle of the crate whose root file is `root`: (crate folder, its files, one
/// cycle as `a.rs:LINE -> b.rs:LINE -> a.rs`).
fn crate_cycles(root: &Path) -> Vec<(String, Vec<String>, String)> {
    let workspace = Path::new(ROOT);
    let src = root.parent().expect("a crate root lies in a folder");
    let krate = src
        .strip_prefix(workspace)
        .expect("under the root")
        .display()
        .to_string();
    let graph = ModuleGraph::read(root);
    let successors = graph.successors();
    cyclic_components(&successors)
        .into_iter()
        .map(|component| {
            let files: Vec<String> = component.iter().map(|&m| graph.name(m, src)).collect();
            let cycle = cycle_through(&successors, &component);
            let mut steps: Vec<String> = cycle
                .iter()
                .zip(cycle.iter().cycle().skip(1))
                .map(|(&from, &to)| format!("{}:{}", graph.name(from, src), graph.edges[&(from, to)]))
                .collect();
            steps.push(graph.name(cycle[0], src));
            let mut files = files;
            files.sort();
            (krate.clone(), files, steps.join(" -> "))
        })
        .collect()
}

#[test]
fn no_crate_has_an_import_cycle_between_its_modules() {
    let roots = crate_roots();
    assert!(roots.len() >= 7, "found only {roots:?}");
    let mut found = Vec::new();
    for root in &roots {
        found.extend(crate_cycles(root));
    }
    let problems = cycle_problems(&found, CYCLE_EXCEPTIONS);
    assert!(problems.is_empty(), "\n{}\n", problems.join("\n"));
}

/// What is wrong with the files' lengths, against the exceptions: one line per problem.
fn length_problems(lengths: &[(String, usize)], exceptions: &[&str]) -> Vec<String> {
    let mut problems = Vec::new();
    for (file, lines) in lengths {
        let excepted = exceptions.contains(&file.as_str());
        if *lines > MAX_LINES && !excepted {
            problems.push(format!("{file} has {lines} lines, more than {MAX_LINES}"));
        } else if *lines <= MAX_LINES && excepted {
            problems.push(format!(
                "{file} has {lines} lines, within {MAX_LINES}: remove it from LENGTH_EXCEPTIONS"
            ));
        }
    }
    for file in exceptions {
        if !lengths.iter().any(|(f, _)| f == file) {
            problems.push(format!(
                "{file} is excepted but no longer exists: remove it from LENGTH_EXCEPTIONS"
            ));
        }
    }
    problems
}

#[test]
fn no_source_file_is_over_the_line_limit() {
    let lengths = source_lengths();
    assert!(lengths.len() >= 100, "found only {} source files", lengths.len());
    let problems = length_problems(&lengths, LENGTH_EXCEPTIONS);
    assert!(problems.is_empty(), "\n{}\n", problems.join("\n"));
}

/// What is wrong with the crates' sizes, against their budgets: one line per problem. `lengths`
/// holds every source file's lines, named from the workspace root.
fn budget_problems(lengths: &[(String, usize)], budgets: &[(&str, usize)]) -> Vec<String> {
    let mut problems = Vec::new();
    for &(dir, budget) in budgets {
        let src = format!("{dir}/src/");
        let mut files = lengths.iter().filter(|(file, _)| file.starts_with(&src)).peekable();
        if files.peek().is_none() {
            problems.push(format!("{dir} has no source files: remove it from CRATE_BUDGETS"));
            continue;
        }
        let total: usize = files.map(|(_, lines)| lines).sum();
        if total >= budget {
            problems.push(format!("{dir}/src has {total} lines, not under its budget of {budget}"));
        }
    }
    problems
}

/// Every source file with its line count, named from the workspace root.
fn source_lengths() -> Vec<(String, usize)> {
    source_files()
        .into_iter()
        .map(|file| {
            let text = std::fs::read_to_string(Path::new(ROOT).join(&file)).unwrap_or_else(|e| panic!("{file}: {e}"));
            let lines = text.lines().count();
            (file, lines)
        })
        .collect()
}

#[test]
fn no_crate_is_over_its_line_budget() {
    let problems = budget_problems(&source_lengths(), CRATE_BUDGETS);
    assert!(problems.is_empty(), "\n{}\n", problems.join("\n"));
}

// The checks themselves, on made-up inputs: each can fail.

/// The edges of a graph read from made-up files, as (from, to) file names.
fn edges_of(files: &[(&str, Option<usize>, &str)]) -> Vec<(String, String)> {
    let graph = ModuleGraph::from_texts(files);
    let base = Path::new("");
    graph
        .edges
        .keys()
        .map(|&(a, b)| (graph.name(a, base), graph.name(b, base)))
        .collect()
}

fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter().map(|(a, b)| (a.to_string(), b.to_string())).collect()
}

#[test]
fn the_cycle_finder_finds_no_cycle_in_a_tree_or_a_diamond() {
    let diamond = vec![vec![1, 2], vec![3], vec![3], vec![]];
    assert_eq!(cyclic_components(&diamond), Vec::<Vec<usize>>::new());
    let chain: Vec<Vec<usize>> = (0..100_000)
        .map(|n| if n + 1 < 100_000 { vec![n + 1] } else { vec![] })
        .collect();
    assert_eq!(cyclic_components(&chain), Vec::<Vec<usize>>::new());
}

#[test]
fn the_cycle_finder_names_every_cycle_and_one_path_around_it() {
    // 0 -> 1 -> 2 -> 0, 3 -> 0, 4 <-> 5, 5 -> 6.
    let graph = vec![vec![1], vec![2], vec![0], vec![0], vec![5], vec![4, 6], vec![]];
    let components = cyclic_components(&graph);
    assert_eq!(components, vec![vec![0, 1, 2], vec![4, 5]]);
    assert_eq!(cycle_through(&graph, &components[0]), vec![0, 1, 2]);
    assert_eq!(cycle_through(&graph, &components[1]), vec![4, 5]);
    // A shortcut inside a component: the shortest cycle through its first node.
    let shortcut = vec![vec![1], vec![2, 0], vec![0]];
    assert_eq!(cycle_through(&shortcut, &cyclic_components(&shortcut)[0]), vec![0, 1]);
}

#[test]
fn the_cycle_finder_handles_a_long_ring_without_recursion() {
    let n = 200_000;
    let ring: Vec<Vec<usize>> = (0..n).map(|i| vec![(i + 1) % n]).collect();
    let components = cyclic_components(&ring);
    assert_eq!(components.len(), 1);
    assert_eq!(components[0].len(), n);
    assert_eq!(cycle_through(&ring, &components[0]).len(), n);
}

#[test]
fn the_reader_sees_use_lines_and_paths_in_code() {
    let files = [
        ("lib", None, "mod a; mod b; pub fn run() { b::go() }"),
        ("a", Some(0), "use crate::b::{self, Thing as Other};\nfn f() {}"),
        ("b", Some(0), "pub fn go() { super::a::f() }"),
    ];
    assert_eq!(
        edges_of(&files),
        pairs(&[("lib.rs", "b.rs"), ("a.rs", "b.rs"), ("b.rs", "a.rs")])
    );
    let graph = ModuleGraph::from_texts(&files);
    assert_eq!(cyclic_components(&graph.successors()), vec![vec![1, 2]]);
}

#[test]
fn the_reader_skips_comments_strings_and_test_code() {
    let files = [
        ("lib", None, "mod a; mod b;"),
        (
            "a",
            Some(0),
            r##"// crate::b::x
/* crate::b::y /* nested */ crate::b::z */
const S: &str = "crate::b::w";
const R: &str = r#"crate::b::v"#;
const C: char = '"';
fn f<'a>(x: &'a str) -> &'a str { x }
#[cfg(test)]
mod tests { use crate::b::Thing; }
#[cfg(test)]
fn helper() { crate::b::go() }
"##,
        ),
        ("b", Some(0), "pub fn go() { crate::a::f(\"\") ; }"),
    ];
    assert_eq!(edges_of(&files), pairs(&[("b.rs", "a.rs")]));
}

#[test]
fn the_reader_follows_a_re_export_to_the_module_that_holds_the_item() {
    let files = [
        ("lib", None, "mod a; mod b; pub use b::Thing;"),
        ("a", Some(0), "use crate::Thing;"),
        ("b", Some(0), "pub struct Thing;"),
    ];
    assert_eq!(edges_of(&files), pairs(&[("lib.rs", "b.rs"), ("a.rs", "b.rs")]));
    // An item the root itself holds is an edge to the root.
    let files = [
        ("lib", None, "mod a; pub struct Options; fn f() { a::g() }"),
        ("a", Some(0), "pub fn g(_: crate::Options) {}"),
    ];
    assert_eq!(edges_of(&files), pairs(&[("lib.rs", "a.rs"), ("a.rs", "lib.rs")]));
}

#[test]
fn the_reader_resolves_super_and_self_inside_inline_modules() {
    let files = [
        ("lib", None, "mod a; mod b;"),
        (
            "a",
            Some(0),
            "mod inner { use super::super::b::go; use self::deeper::x; mod deeper {} }",
        ),
        ("b", Some(0), "pub fn go() {}"),
    ];
    assert_eq!(edges_of(&files), pairs(&[("a.rs", "b.rs")]));
}

#[test]
fn an_unexcepted_cycle_and_a_stale_exception_are_both_problems() {
    let found = vec![(
        "crates/x/src".to_string(),
        vec!["a.rs".to_string(), "b.rs".to_string()],
        "a.rs:1 -> b.rs:2 -> a.rs".to_string(),
    )];
    assert_eq!(
        cycle_problems(&found, &[("crates/x/src", &["a.rs", "b.rs"])]),
        Vec::<String>::new()
    );
    let unexcepted = cycle_problems(&found, &[]);
    assert_eq!(unexcepted.len(), 1);
    assert!(unexcepted[0].contains("a.rs:1 -> b.rs:2 -> a.rs"), "{unexcepted:?}");
    let stale = cycle_problems(&[], &[("crates/x/src", &["a.rs", "b.rs"])]);
    assert_eq!(stale.len(), 1);
    assert!(stale[0].contains("is gone"), "{stale:?}");
    // A cycle that grew is not the excepted one.
    let grown = cycle_problems(&found, &[("crates/x/src", &["a.rs"])]);
    assert_eq!(grown.len(), 2, "{grown:?}");
}

#[test]
fn a_long_file_and_a_stale_length_exception_are_both_problems() {
    let lengths = vec![
        ("long.rs".to_string(), MAX_LINES + 1),
        ("short.rs".to_string(), MAX_LINES),
    ];
    assert_eq!(length_problems(&lengths, &["long.rs"]), Vec::<String>::new());
    assert_eq!(
        length_problems(&lengths, &[]),
        vec![format!("long.rs has {} lines, more than {MAX_LINES}", MAX_LINES + 1)]
    );
    assert_eq!(length_problems(&lengths, &["long.rs", "short.rs"]).len(), 1);
    assert_eq!(length_problems(&lengths, &["long.rs", "gone.rs"]).len(), 1);
}

#[test]
fn the_budget_check_finds_a_crate_over_its_budget_or_gone() {
    let lengths = vec![
        ("crates/a/src/lib.rs".to_string(), 60),
        ("crates/a/src/b.rs".to_string(), 39),
        ("crates/a/tests/t.rs".to_string(), 500),
        ("crates/ab/src/lib.rs".to_string(), 500),
    ];
    assert_eq!(budget_problems(&lengths, &[("crates/a", 100)]), Vec::<String>::new());
    assert_eq!(
        budget_problems(&lengths, &[("crates/a", 99)]),
        vec!["crates/a/src has 99 lines, not under its budget of 99".to_string()]
    );
    assert_eq!(
        budget_problems(&lengths, &[("crates/gone", 100)]),
        vec!["crates/gone has no source files: remove it from CRATE_BUDGETS".to_string()]
    );
}
