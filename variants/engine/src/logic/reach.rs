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

impl Reach {
    /// The reachability of the graph whose node `v` has the edges to
    /// `targets[starts[v]..starts[v + 1]]` (`starts` has one entry more than
    /// there are nodes).
    pub fn new(starts: &[u32], targets: &[u32]) -> Reach {
        let nodes = starts.len().saturating_sub(1);
        let edges = |v: usize| &targets[starts[v] as usize..starts[v + 1] as usize];
        let mut index = vec![UNSEEN; nodes];
        let mut low = vec![0u32; nodes];
        let mut on_stack = vec![false; nodes];
        let mut stack: Vec<u32> = Vec::with_capacity(nodes);
        // The depth-first walk: a node and how many of its edges it followed.
        let mut walk: Vec<(u32, u32)> = Vec::with_capacity(nodes);
        let mut component = vec![UNSEEN; nodes];
        // Components come out in reverse topological order: every component
        // a new one reaches is already complete. Their nodes, one after
        // another, and where each component's start.
        let mut members: Vec<u32> = Vec::with_capacity(nodes);
        let mut firsts: Vec<u32> = vec![0];
        let mut next_index = 0u32;
        for root in 0..nodes {
            if index[root] != UNSEEN {
                continue;
            }
            index[root] = next_index;
            low[root] = next_index;
            next_index += 1;
            stack.push(root as u32);
            on_stack[root] = true;
            walk.push((root as u32, 0));
            while let Some(&mut (v, ref mut followed)) = walk.last_mut() {
                let v = v as usize;
                if let Some(&w) = edges(v).get(*followed as usize) {
                    *followed += 1;
                    let w = w as usize;
                    if index[w] == UNSEEN {
                        index[w] = next_index;
                        low[w] = next_index;
                        next_index += 1;
                        stack.push(w as u32);
                        on_stack[w] = true;
                        walk.push((w as u32, 0));
                    } else if on_stack[w] {
                        low[v] = low[v].min(index[w]);
                    }
                    continue;
                }
                walk.pop();
                if let Some(&(parent, _)) = walk.last() {
                    let parent = parent as usize;
                    low[parent] = low[parent].min(low[v]);
                }
                if low[v] == index[v] {
                    let id = firsts.len() as u32 - 1;
                    while let Some(m) = stack.pop() {
                        on_stack[m as usize] = false;
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
                    if other != id {
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
