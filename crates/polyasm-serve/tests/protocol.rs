//! The server over real sockets: HTTP, the WebSocket protocol of docs/serve.md, the watcher,
//! the limits and the refusals.

mod common;
#[path = "../../polyasm-shader/tests/common/mod.rs"]
mod shader_gpu;

use std::net::TcpStream;
use std::path::Path;

use common::{Server, UV, le32};
use serde_json::{Value, json};
use tungstenite::Message;
use tungstenite::client::IntoClientRequest;

#[test]
fn the_page_lists_checks_and_renders() {
    let server = Server::start(&[("uv.sasm", UV), ("notes.txt", "not a source")]);
    let mut page = server.connect();
    let file = page.open(&server.name("uv.sasm"));
    assert_eq!(file["ok"], true, "{file}");
    assert_eq!(file["target"], "shader");
    assert_eq!(file["panel"], "shader");
    assert_eq!(file["version"], 1);
    assert_eq!(file["source"], UV);
    // The bytecode header, then one row per instruction, each with its line.
    let listing = file["listing"].as_array().unwrap();
    assert_eq!(listing.len(), 6, "{file}");
    assert!(
        listing[0]["source"].as_str().unwrap().starts_with("bytecode header"),
        "{file}"
    );
    let lines: Vec<u64> = listing[1..].iter().map(|row| row["line"].as_u64().unwrap()).collect();
    assert_eq!(lines, [1, 2, 3, 4, 5]);
    page.send(json!({"type": "frame", "path": server.name("uv.sasm"), "seq": 7, "time": 0.5, "width": 8, "height": 2}));
    let picture = page.picture();
    assert_eq!(&picture[..4], b"PAF1");
    assert_eq!((le32(&picture, 4), le32(&picture, 8), le32(&picture, 12)), (7, 8, 2));
    assert_eq!(f32::from_le_bytes(picture[16..20].try_into().unwrap()), 0.5);
    assert_eq!(picture[20], 0, "rendered on the CPU");
    assert_eq!(picture.len(), 24 + 8 * 2 * 4);
    // Red follows the column: dark on the left, bright on the right.
    let red = |x: usize| picture[24 + x * 4];
    assert!(red(0) < 40 && red(7) > 215, "{} {}", red(0), red(7));
}

#[test]
fn the_list_holds_only_sources() {
    let server = Server::start(&[
        ("a.sasm", UV),
        ("b/c.mx", "jmp end\n"),
        ("notes.txt", "x"),
        (".hidden/d.mx", "jmp end\n"),
    ]);
    let mut page = server.connect_with(&[]);
    page.send(json!({"type": "open", "path": server.name("notes.txt")}));
    assert_eq!(page.until("gone")["path"], server.name("notes.txt"));
    page.send(json!({"type": "open", "path": "/etc/passwd"}));
    assert_eq!(page.until("gone")["path"], "/etc/passwd");
    page.send(json!({"type": "open", "path": server.name(".hidden/d.mx")}));
    page.until("gone");
    let file = page.open(&server.name("b/c.mx"));
    assert_eq!(file["ok"], true);
}

#[test]
fn a_save_updates_the_page_and_errors_keep_the_program_out() {
    let server = Server::start(&[("uv.sasm", UV)]);
    let mut page = server.connect();
    let name = server.name("uv.sasm");
    assert_eq!(page.open(&name)["version"], 1);
    std::fs::write(server.dir.path().join("uv.sasm"), "frobnicate(s0)\n").unwrap();
    let file = page.until("file");
    assert_eq!(file["version"], 2);
    assert_eq!(file["ok"], false);
    let report = file["report"].as_str().unwrap();
    let code = file["diagnostics"][0]["code"].as_str().unwrap();
    assert!(report.contains(&format!("href=\"/explain/{code}\"")), "{report}");
    assert!(
        report.contains(&format!("data-file=\"{name}\" data-line=\"1\" data-column=\"1\"")),
        "{report}"
    );
    assert_eq!(file["diagnostics"][0]["line"], 1);
    // A picture of a program with errors is refused, not rendered from an old version.
    page.send(json!({"type": "frame", "path": name, "seq": 1, "time": 0, "width": 4, "height": 4}));
    assert_eq!(page.until("frame_error")["seq"], 1);
    std::fs::write(server.dir.path().join("uv.sasm"), UV).unwrap();
    let file = page.until("file");
    assert!(file["version"].as_u64() > Some(2), "{file}");
    assert_eq!(file["ok"], true);
}

#[test]
fn files_that_appear_and_vanish_change_the_list() {
    let server = Server::start(&[("a.mx", "jmp end\n")]);
    let mut page = server.connect();
    let name = server.name("a.mx");
    page.open(&name);
    std::fs::write(server.dir.path().join("b.mx"), "jmp end\n").unwrap();
    let files = page.until("files");
    assert_eq!(files["files"].as_array().unwrap().len(), 2, "{files}");
    std::fs::remove_file(server.dir.path().join("a.mx")).unwrap();
    // The open file's news: the list without it, and `gone`.
    assert_eq!(page.until("gone")["path"], name);
    // It comes back as a folder: still not a source, unlike a new file beside it.
    std::fs::create_dir(server.dir.path().join("a.mx")).unwrap();
    std::fs::write(server.dir.path().join("c.mx"), "jmp end\n").unwrap();
    let files = page.until("files");
    let names: Vec<&str> = files["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["path"].as_str().unwrap())
        .collect();
    assert_eq!(names, [server.name("b.mx"), server.name("c.mx")]);
}

#[test]
fn a_masfix_run_streams_its_output_and_ends_with_the_machine() {
    let program = "mov 1\n:loop\nincm\nlmeq 65535\nbrne end\noutcm\njmp loop\n";
    let server = Server::start(&[("echo.mx", program)]);
    let mut page = server.connect();
    let name = server.name("echo.mx");
    let file = page.open(&name);
    assert_eq!(file["ok"], true, "{file}");
    page.send(json!({"type": "run", "path": name, "run": 3, "stdin": "hi!", "options": []}));
    let mut output = String::new();
    let end = loop {
        let message = page.next_text();
        match message["type"].as_str() {
            Some("run_output") => output.push_str(message["text"].as_str().unwrap()),
            Some("run_end") => break message,
            _ => {}
        }
    };
    assert_eq!(end["run"], 3);
    assert_eq!(end["status"], "ok", "{end}");
    assert_eq!(output, "hi!");
    assert!(end["steps"].as_u64().unwrap() > 10, "{end}");
    let registers = &end["state"]["registers"];
    assert_eq!(registers[0][0], "h");
    assert_eq!(registers[0][1], 1);
    assert_eq!(end["state"]["memory"]["cells"].as_array().unwrap().len(), 128);
}

#[test]
fn runs_are_bounded_in_steps_and_output() {
    let forever = ":top\njmp top\n";
    let chatty = ":top\noutc 'y'\njmp top\n";
    let server = Server::start(&[("forever.mx", forever), ("chatty.mx", chatty)]);
    let mut page = server.connect();
    let name = server.name("forever.mx");
    page.open(&name);
    page.send(json!({"type": "run", "path": name, "run": 1, "options": [["max-steps", "5000"]]}));
    let end = page.until("run_end");
    assert_eq!(end["status"], "error");
    assert_eq!(end["steps"], 5000);
    assert!(end["report"].as_str().unwrap().contains("step limit"), "{end}");
    let name = server.name("chatty.mx");
    page.open(&name);
    page.send(json!({"type": "run", "path": name, "run": 2, "options": []}));
    let mut bytes = 0;
    let end = loop {
        let message = page.next_text();
        match message["type"].as_str() {
            Some("run_output") => bytes += message["text"].as_str().unwrap().len(),
            Some("run_end") => break message,
            _ => {}
        }
    };
    assert_eq!(end["status"], "cut", "{end}");
    assert_eq!(end["output_truncated"], true);
    assert_eq!(bytes, polyasm_serve::live::MAX_RUN_OUTPUT);
}

#[test]
fn a_stopped_run_says_so() {
    let chatty = ":top\noutc 'y'\njmp top\n";
    let server = Server::start(&[("chatty.mx", chatty)]);
    let mut page = server.connect();
    let name = server.name("chatty.mx");
    page.open(&name);
    page.send(json!({"type": "run", "path": name, "run": 9, "options": []}));
    page.until("run_output");
    page.send(json!({"type": "stop", "run": 9}));
    let end = page.until("run_end");
    assert!(end["status"] == "stopped" || end["status"] == "cut", "{end}");
    // A program that computes without writing is stopped for the page at once; a new run
    // replaces it.
    let forever = ":top\njmp top\n";
    std::fs::write(server.dir.path().join("chatty.mx"), forever).unwrap();
    page.until("file");
    page.send(json!({"type": "run", "path": name, "run": 10, "options": [["max-steps", "2000000000"]]}));
    std::thread::sleep(std::time::Duration::from_millis(100));
    page.send(json!({"type": "stop", "run": 10}));
    let end = page.until("run_end");
    assert_eq!(
        (end["run"].as_u64(), end["status"].as_str()),
        (Some(10), Some("stopped")),
        "{end}"
    );
    // Runs with a bad texture leave the count of runs as it was: the fifth is not `busy`.
    for n in 0..6 {
        page.send(json!({"type": "run", "path": name, "run": 20 + n, "options": [["texture", "0=nothing.png"]]}));
        assert_eq!(page.until("run_end")["status"], "error");
    }
}

#[test]
fn vertex_runs_give_the_outputs_as_json() {
    let server = Server::start(&[("p.vsh", "mov oPos, v0\n")]);
    let mut page = server.connect();
    let name = server.name("p.vsh");
    let file = page.open(&name);
    assert_eq!(
        (file["ok"].as_bool(), file["panel"].as_str()),
        (Some(true), Some("vertex")),
        "{file}"
    );
    page.send(json!({"type": "run", "path": name, "run": 1, "options": [["input", "v0=1,2,3,4"]]}));
    // Sent whole with the end, as text and parsed.
    let end = page.next_text();
    assert_eq!(end["type"], "run_end", "{end}");
    assert_eq!(end["status"], "ok", "{end}");
    let outputs: Value = serde_json::from_str(end["output"].as_str().unwrap()).expect("JSON outputs");
    assert_eq!(outputs, end["json"]);
    assert_eq!(outputs["vertices"][0]["oPos"], json!([1.0, 2.0, 3.0, 4.0]), "{outputs}");
    // A bad value is the command line's diagnostic.
    page.send(json!({"type": "run", "path": name, "run": 2, "options": [["input", "v0=x"]]}));
    let end = page.until("run_end");
    assert_eq!(end["status"], "error");
    assert!(!end["report"].as_str().unwrap().is_empty());
}

#[test]
fn lima_renders_a_picture_and_one_fragment() {
    let solid =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/lima/solid_colour.pp"))
            .unwrap();
    let server = Server::start(&[("solid.pp", &solid)]);
    let mut page = server.connect();
    let name = server.name("solid.pp");
    let file = page.open(&name);
    assert_eq!(file["ok"], true, "{file}");
    page.send(json!({"type": "frame", "path": name, "seq": 2, "time": 0, "width": 4, "height": 3, "options": []}));
    let picture = page.picture();
    assert_eq!((le32(&picture, 4), le32(&picture, 8), le32(&picture, 12)), (2, 4, 3));
    assert_eq!(picture.len(), 24 + 4 * 3 * 4);
    page.send(json!({"type": "run", "path": name, "run": 1, "options": [["fragcoord", "1,1"]]}));
    let end = page.until("run_end");
    assert_eq!(end["status"], "ok", "{end}");
}

#[test]
fn requests_for_other_hosts_and_origins_are_refused() {
    let server = Server::start(&[("a.mx", "jmp end\n")]);
    let host = server.host();
    let (status, body) = server.get("/", &[("Host", &host)]);
    assert!(status.contains("200"), "{status}");
    assert!(
        body.contains("<!doctype html>") || body.contains("<!DOCTYPE html>"),
        "{body}"
    );
    for bad in [
        vec![("Host", "evil.example:80")],
        vec![("Host", host.as_str()), ("Origin", "http://evil.example")],
        vec![],
    ] {
        let (status, _) = server.get("/", &bad);
        assert!(status.contains("403"), "{bad:?}: {status}");
    }
    let (status, _) = server.get("/../../etc/passwd", &[("Host", &host)]);
    assert!(status.contains("404"), "{status}");
    let (status, body) = server.get("/explain/PA001", &[("Host", &host)]);
    assert!(status.contains("200") && body.contains("PA001"), "{status} {body}");
    let (status, body) = server.get("/explain/%3Cscript%3E", &[("Host", &host)]);
    assert!(status.contains("404") && !body.contains("<script>"), "{status} {body}");
    // The WebSocket from another site's page.
    let mut request = format!("ws://{}/ws", server.address).into_client_request().unwrap();
    request.headers_mut().insert(
        "Origin",
        tungstenite::http::HeaderValue::from_static("http://evil.example"),
    );
    let stream = TcpStream::connect(&server.address).unwrap();
    assert!(tungstenite::client(request, stream).is_err());
}

#[test]
fn hostile_messages_get_errors_and_the_server_goes_on() {
    let server = Server::start(&[("a.mx", "jmp end\n")]);
    let mut page = server.connect();
    page.socket.send(Message::Text("{not json".into())).unwrap();
    assert_eq!(page.until("error")["type"], "error");
    page.socket.send(Message::Binary(vec![1, 2, 3].into())).unwrap();
    assert_eq!(page.until("error")["type"], "error");
    page.send(json!({"type": "frame", "path": server.name("a.mx"), "seq": 1}));
    page.until("frame_error");
    page.send(json!({"type": "teleport"}));
    page.until("error");
    // A message over the limit closes that page only.
    let mut greedy = server.connect();
    let huge = "x".repeat(polyasm_serve::server::MAX_MESSAGE_BYTES + 1);
    let _ = greedy.socket.send(Message::Text(huge.into()));
    let closed = (0..10).any(|_| greedy.socket.read().is_err());
    assert!(closed, "the page that sent too much is closed");
    let file = page.open(&server.name("a.mx"));
    assert_eq!(file["ok"], true);
    // Absurd pictures.
    for (w, h) in [(0, 5), (1_000_000, 1_000_000), (4096, 4096)] {
        page.send(json!({"type": "frame", "path": server.name("a.mx"), "seq": 5, "time": 0, "width": w, "height": h}));
        page.until("frame_error");
    }
}

#[test]
fn a_source_over_the_limit_is_refused_unread() {
    let big = ";".repeat(polyasm_serve::check::MAX_SOURCE_BYTES as usize + 1);
    let server = Server::start(&[("big.mx", &big)]);
    let mut page = server.connect();
    let file = page.open(&server.name("big.mx"));
    assert_eq!(file["ok"], false);
    assert_eq!(file["diagnostics"][0]["code"], "PA013", "{}", file["diagnostics"]);
    assert_eq!(file["source"], "");
}

#[test]
fn fifty_pages_at_once_each_get_the_file() {
    let server = Server::start(&[("a.sasm", UV)]);
    let name = server.name("a.sasm");
    let mut pages: Vec<_> = (0..50).map(|_| server.connect()).collect();
    for page in &mut pages {
        page.send(json!({"type": "open", "path": name}));
    }
    for page in &mut pages {
        assert_eq!(page.until("file")["ok"], true);
    }
    // Every page hears of a save.
    std::fs::write(server.dir.path().join("a.sasm"), format!("{UV}# saved\n")).unwrap();
    for page in &mut pages {
        assert_eq!(page.until("file")["version"], 2);
    }
}

#[test]
fn a_page_that_leaves_mid_picture_or_mid_run_leaves_the_server_serving() {
    let chatty = ":top\noutc 'y'\njmp top\n";
    let server = Server::start(&[("a.sasm", UV), ("chatty.mx", chatty)]);
    for _ in 0..3 {
        let mut page = server.connect();
        page.open(&server.name("a.sasm"));
        page.send(
            json!({"type": "frame", "path": server.name("a.sasm"), "seq": 1, "time": 0, "width": 1920, "height": 1080}),
        );
        drop(page);
        let mut page = server.connect();
        page.open(&server.name("chatty.mx"));
        page.send(json!({"type": "run", "path": server.name("chatty.mx"), "run": 1}));
        page.until("run_output");
        drop(page);
    }
    // The runs of the pages that left have stopped: new runs are not `busy`.
    std::thread::sleep(std::time::Duration::from_millis(500));
    let mut page = server.connect();
    page.open(&server.name("chatty.mx"));
    page.send(json!({"type": "run", "path": server.name("chatty.mx"), "run": 2, "options": [["max-steps", "10"]]}));
    let end = page.until("run_end");
    assert_eq!(end["status"], "error", "{end}");
    assert_eq!(end["steps"], 10);
}

#[test]
fn garbage_on_the_port_is_refused_and_the_server_goes_on() {
    use std::io::{Read, Write};
    let server = Server::start(&[("a.mx", "jmp end\n")]);
    for garbage in [
        &b"\x00\x01\x02\xff\r\n\r\n"[..],
        b"GET / HTTP/1.1\r\nHost: x\r\nHost: y\r\n\r\n",
        &[b'A'; 100_000],
    ] {
        let mut stream = TcpStream::connect(&server.address).unwrap();
        // A request that never ends its headers gets no answer: the read gives up.
        stream
            .set_read_timeout(Some(std::time::Duration::from_secs(1)))
            .unwrap();
        let _ = stream.write_all(garbage);
        let mut response = Vec::new();
        let _ = stream.read_to_end(&mut response);
        let text = String::from_utf8_lossy(&response);
        assert!(!text.contains("200 OK"), "{text}");
    }
    let mut page = server.connect();
    assert_eq!(page.open(&server.name("a.mx"))["ok"], true);
}

#[test]
fn a_program_that_reads_past_its_input_ends_at_its_step_limit() {
    let reader = ":top\nincm\njmp top\n";
    let server = Server::start(&[("reader.mx", reader)]);
    let mut page = server.connect();
    page.open(&server.name("reader.mx"));
    page.send(json!({"type": "run", "path": server.name("reader.mx"), "run": 1, "stdin": "abc", "options": [["max-steps", "100000"]]}));
    let end = page.until("run_end");
    assert_eq!(
        (end["status"].as_str(), end["steps"].as_u64()),
        (Some("error"), Some(100_000)),
        "{end}"
    );
}

#[test]
fn lima_binds_listed_pictures_and_nothing_else() {
    let copy =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/lima/texture_copy.pp"))
            .unwrap();
    let mut png = Vec::new();
    polyasm_core::picture::write_png(2, 2, &[200, 10, 20, 255].repeat(4), &mut png).unwrap();
    let server = Server::start(&[("copy.pp", &copy)]);
    std::fs::write(server.dir.path().join("red.png"), &png).unwrap();
    let mut page = server.connect();
    let files = page.until("files");
    assert_eq!(files["pictures"], json!([server.name("red.png")]), "{files}");
    let name = server.name("copy.pp");
    page.open(&name);
    let texture = format!("0={}", server.name("red.png"));
    page.send(json!({"type": "frame", "path": name, "seq": 1, "time": 0, "width": 4, "height": 4, "options": [["texture", texture]]}));
    let picture = page.picture();
    assert_eq!(&picture[24..27], &[200, 10, 20], "the texture's colour");
    for bad in ["0=/etc/passwd", "0=../red.png", "0=red.png"] {
        page.send(json!({"type": "frame", "path": name, "seq": 2, "time": 0, "width": 4, "height": 4, "options": [["texture", bad]]}));
        let error = page.until("frame_error");
        assert!(
            error["report"].as_str().unwrap().contains("the page lists no picture"),
            "{bad}: {error}"
        );
    }
    // Options that read or write other files are the command line's.
    page.send(json!({"type": "run", "path": name, "run": 1, "options": [["data", "/etc/passwd"]]}));
    let end = page.until("run_end");
    assert_eq!(end["status"], "error");
}

#[test]
fn on_a_gpu_frames_come_from_the_interpreter_then_from_the_native_pipeline() {
    // The shader crate's rule: no GPU is a failure unless POLYASM_NO_GPU=1 says so.
    if shader_gpu::gpu().is_none() {
        return;
    }
    let sphere =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/shader/sphere.sasm"))
            .unwrap();
    let server = Server::start_on(&[("sphere.sasm", &sphere)], polyasm_serve::Device::Gpu);
    let mut page = server.connect();
    let name = server.name("sphere.sasm");
    page.open(&name);
    let (width, height) = (64u32, 36u32);
    let mut places = Vec::new();
    let mut native = None;
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while native.is_none() && std::time::Instant::now() < deadline {
        page.send(
            json!({"type": "frame", "path": name, "seq": places.len(), "time": 0.25, "width": width, "height": height}),
        );
        let picture = page.picture();
        places.push(picture[20]);
        if picture[20] == 2 {
            native = Some(picture);
        }
    }
    assert_eq!(places[0], 1, "the first frame comes from the interpreter: {places:?}");
    let native = native.unwrap_or_else(|| panic!("no native frame in a minute: {places:?}"));
    // The native picture is the CPU renderer's within 1 per channel.
    let program = polyasm_shader::assemble_text(&sphere).unwrap();
    let frame = polyasm_shader::exec::Frame {
        width,
        height,
        time: 0.25,
    };
    let cpu = polyasm_shader::render::render(&program, &frame, polyasm_shader::exec::Alpha::Opaque).unwrap();
    let worst = native[24..]
        .iter()
        .zip(&cpu.rgba)
        .map(|(a, b)| a.abs_diff(*b))
        .max()
        .unwrap();
    assert!(worst <= 1, "native and CPU differ by {worst}");
}

#[test]
fn an_ip_origin_other_than_the_page_and_two_hosts_are_refused() {
    let server = Server::start(&[("a.mx", "jmp end\n")]);
    let host = server.host();
    let port = host.rsplit(':').next().unwrap();
    for origin in [
        format!("http://192.0.2.2:{port}"),
        format!("http://localhost:{port}"),
        "null".to_string(),
    ] {
        let mut request = format!("ws://{}/ws", server.address).into_client_request().unwrap();
        request
            .headers_mut()
            .insert("Origin", tungstenite::http::HeaderValue::from_str(&origin).unwrap());
        let stream = TcpStream::connect(&server.address).unwrap();
        assert!(tungstenite::client(request, stream).is_err(), "{origin}");
    }
    // The page's own origin is its address.
    let mut request = format!("ws://{}/ws", server.address).into_client_request().unwrap();
    request.headers_mut().insert(
        "Origin",
        tungstenite::http::HeaderValue::from_str(&format!("http://{host}")).unwrap(),
    );
    let stream = TcpStream::connect(&server.address).unwrap();
    assert!(tungstenite::client(request, stream).is_ok());
    let (status, _) = server.get("/", &[("Host", &host), ("Host", &host)]);
    assert!(status.contains("403"), "{status}");
    let (status, _) = server.get("/", &[("Host", &format!("192.0.2.2:{port}"))]);
    assert!(status.contains("403"), "{status}");
}

#[test]
fn a_settings_file_that_appears_is_read() {
    let server = Server::start(&[("a.mx", "jmp end\n")]);
    let mut page = server.connect();
    let name = server.name("a.mx");
    assert_eq!(page.open(&name)["ok"], true);
    std::fs::write(server.dir.path().join("polyasm.toml"), "this is not toml = = =\n").unwrap();
    let file = page.until("file");
    assert_eq!(file["ok"], false, "{file}");
    assert_eq!(file["diagnostics"][0]["code"], "PA027", "{file}");
}

#[test]
fn a_picture_of_a_program_that_never_ends_stops_at_its_step_budget() {
    let server = Server::start(&[("spin.pp", "loop:\nbranch loop\n")]);
    let mut page = server.connect();
    let name = server.name("spin.pp");
    let file = page.open(&name);
    assert_eq!(file["ok"], true, "{file}");
    page.send(json!({"type": "frame", "path": name, "seq": 1, "time": 0, "width": 64, "height": 64, "options": [["max-steps", "18446744073709551615"]]}));
    let error = page.until("frame_error");
    assert!(error["report"].as_str().unwrap().contains("step"), "{error}");
    page.send(json!({"type": "run", "path": name, "run": 1, "options": [["max-steps", "18446744073709551615"]]}));
    let end = page.until("run_end");
    assert_eq!(end["status"], "error", "{end}");
    // Not a number: the command line's refusal.
    page.send(json!({"type": "run", "path": name, "run": 2, "options": [["max-steps", "-1"]]}));
    let end = page.until("run_end");
    assert_eq!(end["status"], "error", "{end}");
    assert!(end["report"].as_str().unwrap().contains("max-steps"), "{end}");
    for (w, h) in [
        (json!(1e30), json!(1)),
        (json!(-1), json!(1)),
        (json!(4294967297u64), json!(1)),
    ] {
        page.send(json!({"type": "frame", "path": name, "seq": 3, "time": 0, "width": w, "height": h}));
        let error = page.until("frame_error");
        assert!(error["report"].as_str().unwrap().contains("whole numbers"), "{error}");
    }
}

#[test]
fn the_page_options_replace_the_settings_files_as_the_command_lines_do() {
    let server = Server::start(&[
        ("p.vsh", "mov oPos, v0\nmov oD0, v3\n"),
        ("polyasm.toml", "[nv2a]\ninput = [\"v0=9,9,9,9\", \"v3=5,5,5,5\"]\n"),
    ]);
    let mut page = server.connect();
    let name = server.name("p.vsh");
    page.open(&name);
    // The file's inputs when the page gives none.
    page.send(json!({"type": "run", "path": name, "run": 1, "options": []}));
    let end = page.until("run_end");
    assert_eq!(end["json"]["vertices"][0]["oD0"], json!([5.0, 5.0, 5.0, 5.0]), "{end}");
    // The page's `input` replaces all of the file's, so v3 is back to its default.
    page.send(json!({"type": "run", "path": name, "run": 2, "options": [["input", "v0=1,2,3,4"]]}));
    let end = page.until("run_end");
    assert_eq!(end["json"]["vertices"].as_array().unwrap().len(), 1, "{end}");
    assert_eq!(end["json"]["vertices"][0]["oPos"], json!([1.0, 2.0, 3.0, 4.0]), "{end}");
    assert_eq!(end["json"]["vertices"][0]["oD0"], json!([0.0, 0.0, 0.0, 0.0]), "{end}");
}
