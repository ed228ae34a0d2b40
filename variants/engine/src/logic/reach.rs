//! Which nodes of a directed graph reach which: its strongly connected
//! components (Tarjan's algorithm, without recursion) and, for each
//! component, the set of components it reaches, as bits. One pass over the
//! edges answers "does a reach b?" for every pair, where a search from each
//! node would walk its whole closure again.

/// Not visited yet (Tarjan's index).
const UNSEEN: u32 = u32::MAX;

/// The reachability of a graph's nodes.
pub(crate) struct Reach {
    /// By node: its component.
    component: Vec<u32>,
    /// By component: the components it reaches (itself included), `words`
    /// 64-bit words each.
    reaches: Vec<u64>,
    words: usize,
    /// The nodes of each component, one component after another, and where
    /// each starts (one entry more than there are components).
    members: Vec<u32>,
    firsts: Vec<u32>,
}

/// Tarjan's depth-first walk: each node's visiting order and the lowest
/// order it reaches back to, the nodes not yet given a component, and the
/// path (a node and how many of its edges it followed).
struct Walk {
    index: Vec<u32>,
    low: Vec<u32>,
    on_stack: Vec<bool>,
    stack: Vec<u32>,
    path: Vec<(u32, u32)>,
    next_index: u32,
}

impl Walk {
    /// A walk over `nodes` nodes, none visited.
    fn new(nodes: usize) -> Walk {
        Walk {
            index: vec![UNSEEN; nodes],
            low: vec![0; nodes],
            on_stack: vec![false; nodes],
            stack: Vec::with_capacity(nodes),
            path: Vec::with_capacity(nodes),
            next_index: 0,
        }
    }

    /// Visits node `v`: numbers it and walks on from it.
    fn enter(&mut self, v: usize) {
        self.index[v] = self.next_index;
        self.low[v] = self.next_index;
        self.next_index += 1;
        self.stack.push(v as u32);
        self.on_stack[v] = true;
        self.path.push((v as u32, 0));
    }
}

impl Reach {
    /// The reachability of the graph whose node `v` has the edges to
    /// `targets[starts[v]..starts[v + 1]]` (`starts` has one entry more than
    /// there are nodes).
    pub fn new(starts: &[u32], targets: &[u32]) -> Reach {
        let nodes = starts.len().saturating_sub(1);
        let edges = |v: usize| &targets[starts[v] as usize..starts[v + 1] as usize];
        let mut walk = Walk::new(nodes);
        let mut component = vec![UNSEEN; nodes];
        // Components come out in reverse topological order: every component
        // a new one reaches is already complete. Their nodes, one after
        // another, and where each component's start.
        let mut members: Vec<u32> = Vec::with_capacity(nodes);
        let mut firsts: Vec<u32> = vec![0];
        for root in 0..nodes {
            if walk.index[root] != UNSEEN {
                continue;
            }
            walk.enter(root);
            while let Some(&mut (v, ref mut followed)) = walk.path.last_mut() {
                let v = v as usize;
                if let Some(&w) = edges(v).get(*followed as usize) {
                    *followed += 1;
                    let w = w as usize;
                    if walk.index[w] == UNSEEN {
                        walk.enter(w);
                    } else if walk.on_stack[w] {
                        walk.low[v] = walk.low[v].min(walk.index[w]);
                    }
                    continue;
                }
                walk.path.pop();
                if let Some(&(parent, _)) = walk.path.last() {
                    let parent = parent as usize;
                    walk.low[parent] = walk.low[parent].min(walk.low[v]);
                }
                if walk.low[v] == walk.index[v] {
                    let id = firsts.len() as u32 - 1;
                    while let Some(m) = walk.stack.pop() {
                        walk.on_stack[m as usize] = false;
                        component[m as usize] = id;
                        members.push(m);
                        if m as usize == v {
                            break;
                        }
                    }
                    firsts.push(members.len() as u32);
                }
            }
        }
        let count = firsts.len() - 1;
        let words = count.div_ceil(64).max(1);
        let mut reaches = vec![0u64; count * words];
        for id in 0..count {
            reaches[id * words + id / 64] |= 1 << (id % 64);
            for &m in &members[firsts[id] as usize..firsts[id + 1] as usize] {
                for &w in edges(m as usize) {
                    let other = component[w as usize] as usize;
                    // A component already reached brought everything it
                    // reaches along (rows are closed under reaching).
                    let reached = reaches[id * words + other / 64] >> (other % 64) & 1 == 1;
                    if !reached {
                        // `other < id`: complete, and apart from `id`'s row.
                        let (done, rest) = reaches.split_at_mut(id * words);
                        let from = &done[other * words..(other + 1) * words];
                        for (to, bits) in rest[..words].iter_mut().zip(from) {
                            *to |= bits;
                        }
                    }
                }
            }
        }
        Reach {
            component,
            reaches,
            words,
            members,
            firsts,
        }
    }

    /// Every node `from` reaches, itself included, component by component.
    pub fn reached(&self, from: usize) -> impl Iterator<Item = u32> + '_ {
        let c = self.component[from] as usize;
        let row = &self.reaches[c * self.words..(c + 1) * self.words];
        row.iter()
            .enumerate()
            .flat_map(|(w, &bits)| {
                let mut rest = bits;
                std::iter::from_fn(move || {
                    (rest != 0).then(|| {
                        let b = rest.trailing_zeros() as usize;
                        rest &= rest - 1;
                        w * 64 + b
                    })
                })
            })
            .flat_map(|id| &self.members[self.firsts[id] as usize..self.firsts[id + 1] as usize])
            .copied()
    }

    /// Whether nodes `a` and `b` reach each other.
    pub fn same_component(&self, a: usize, b: usize) -> bool {
        self.component[a] == self.component[b]
    }

    /// Whether node `from` reaches node `to` (every node reaches itself).
    pub fn reaches(&self, from: usize, to: usize) -> bool {
        let (a, b) = (self.component[from] as usize, self.component[to] as usize);
        self.reaches[a * self.words + b / 64] >> (b % 64) & 1 == 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The graph with these edges over `nodes` nodes, in the form
    /// [`Reach::new`] takes.
    fn graph(nodes: usize, edges: &[(u32, u32)]) -> (Vec<u32>, Vec<u32>) {
        let mut starts = vec![0u32];
        let mut targets = Vec::new();
        for v in 0..nodes as u32 {
            targets.extend(edges.iter().filter(|e| e.0 == v).map(|e| e.1));
            starts.push(targets.len() as u32);
        }
        (starts, targets)
    }

    /// Plain reachability by a search from `from`.
    fn searched(nodes: usize, edges: &[(u32, u32)], from: usize) -> Vec<bool> {
        let mut seen = vec![false; nodes];
        let mut todo = vec![from];
        seen[from] = true;
        while let Some(v) = todo.pop() {
            for e in edges.iter().filter(|e| e.0 as usize == v) {
                if !seen[e.1 as usize] {
                    seen[e.1 as usize] = true;
                    todo.push(e.1 as usize);
                }
            }
        }
        seen
    }

    /// Every pair's answer equals a search's, on small graphs with cycles,
    /// chains and isolated nodes, and on random graphs of 150 nodes (three
    /// words of component bits).
    #[test]
    fn reaches_as_a_search_does() {
        let mut cases: Vec<(usize, Vec<(u32, u32)>)> = vec![
            (1, vec![]),
            (4, vec![(0, 1), (1, 2), (2, 0), (2, 3)]),
            (5, vec![(0, 1), (1, 0), (3, 4), (4, 3), (1, 3)]),
        ];
        let mut state = 12345u64;
        let mut random = |n: u64| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (state >> 33) % n
        };
        for density in [1, 2, 4] {
            let edges = (0..150 * density)
                .map(|_| (random(150) as u32, random(150) as u32))
                .collect();
            cases.push((150, edges));
        }
        let mut reached = 0;
        for (nodes, edges) in cases {
            let (starts, targets) = graph(nodes, &edges);
            let reach = Reach::new(&starts, &targets);
            for from in 0..nodes {
                let want = searched(nodes, &edges, from);
                for (to, &want) in want.iter().enumerate() {
                    assert_eq!(reach.reaches(from, to), want, "{from} -> {to} in {edges:?}");
                    reached += usize::from(want && from != to);
                }
                for to in 0..nodes {
                    let both = reach.reaches(from, to) && reach.reaches(to, from);
                    assert_eq!(reach.same_component(from, to), both, "{from} <-> {to}");
                }
                let mut listed: Vec<usize> = reach.reached(from).map(|v| v as usize).collect();
                listed.sort_unstable();
                let wanted: Vec<usize> = (0..nodes).filter(|&v| want[v]).collect();
                assert_eq!(listed, wanted, "from {from} in {edges:?}");
            }
        }
        assert!(reached > 1000, "{reached}");
    }
}
