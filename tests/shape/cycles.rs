//! Cycles in a directed graph given as successor lists: its strongly connected components
//! (Tarjan's algorithm, without recursion) and one concrete cycle through a component.

/// Every strongly connected component with more than one node, each sorted, in order of
/// their smallest node. A node with an edge to itself is not reported (the module graph has
/// none).
pub fn cyclic_components(successors: &[Vec<usize>]) -> Vec<Vec<usize>> {
    const UNSEEN: usize = usize::MAX;
    let n = successors.len();
    let mut index = vec![UNSEEN; n];
    let mut low = vec![0; n];
    let mut on_stack = vec![false; n];
    let mut stack = Vec::new();
    let mut next_index = 0;
    let mut components = Vec::new();
    // The depth-first search's own stack: (node, how many of its successors are done).
    let mut work: Vec<(usize, usize)> = Vec::new();
    for start in 0..n {
        if index[start] != UNSEEN {
            continue;
        }
        work.push((start, 0));
        while let Some(&mut (node, ref mut done)) = work.last_mut() {
            if *done == 0 && index[node] == UNSEEN {
                index[node] = next_index;
                low[node] = next_index;
                next_index += 1;
                stack.push(node);
                on_stack[node] = true;
            }
            if let Some(&next) = successors[node].get(*done) {
                *done += 1;
                if index[next] == UNSEEN {
                    work.push((next, 0));
                } else if on_stack[next] {
                    low[node] = low[node].min(index[next]);
                }
                continue;
            }
            work.pop();
            if let Some(&(parent, _)) = work.last() {
                low[parent] = low[parent].min(low[node]);
            }
            if low[node] == index[node] {
                let mut component = Vec::new();
                loop {
                    let member = stack.pop().expect("invariant: the root of a component is on the stack");
                    on_stack[member] = false;
                    component.push(member);
                    if member == node {
                        break;
                    }
                }
                if component.len() > 1 {
                    component.sort_unstable();
                    components.push(component);
                }
            }
        }
    }
    components.sort();
    components
}

/// A shortest cycle through the first node of `component` that stays inside it: the nodes in
/// order, the first not repeated at the end.
pub fn cycle_through(successors: &[Vec<usize>], component: &[usize]) -> Vec<usize> {
    let start = component[0];
    let inside = |node: usize| component.binary_search(&node).is_ok();
    let mut came_from = vec![usize::MAX; successors.len()];
    let mut queue = std::collections::VecDeque::from([start]);
    while let Some(node) = queue.pop_front() {
        for &next in &successors[node] {
            if next == start {
                let mut cycle = vec![node];
                while *cycle.last().expect("invariant: the cycle is not empty") != start {
                    cycle.push(came_from[*cycle.last().expect("invariant: not empty")]);
                }
                cycle.reverse();
                return cycle;
            }
            if inside(next) && came_from[next] == usize::MAX {
                came_from[next] = node;
                queue.push_back(next);
            }
        }
    }
    unreachable!("every node of a strongly connected component lies on a cycle")
}
