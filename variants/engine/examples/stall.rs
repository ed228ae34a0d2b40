//! Scratch: where the grader (no nested chains) stops.
use engine::corpus::from_corpus;
use engine::v1::from_v1;
use protocol::corpus::CorpusPuzzle;
fn main() {
    let path = std::env::args().nth(1).unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    let p: CorpusPuzzle = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    let loaded = from_v1(&from_corpus(&p).unwrap()).unwrap();
    let model = loaded.puzzle.model();
    let g = engine::logic::grade_without_nested_chains(model, loaded.puzzle.givens(), engine::logic::Options::default());
    let mut cand = vec![0x1FFu32; 81];
    let mut placed = vec![0u8; 81];
    for (i, &v) in loaded.puzzle.givens().iter().enumerate() { if v > 0 { placed[i] = v; } }
    let mut counts = std::collections::BTreeMap::new();
    for s in &g.steps {
        *counts.entry(format!("{:?}", s.technique)).or_insert(0) += 1;
        for e in &s.eliminations { cand[e.cell as usize] &= !(1 << (e.value - 1)); }
        for pl in &s.placements { placed[pl.cell as usize] = pl.value; }
    }
    // peers by row/col/box
    for i in 0..81 { if placed[i] > 0 { for j in 0..81 { if i != j && (i / 9 == j / 9 || i % 9 == j % 9 || (i / 27 == j / 27 && (i % 9) / 3 == (j % 9) / 3)) { cand[j] &= !(1 << (placed[i] - 1)); } } } }
    println!("solved {} steps {} {:?}", g.solved, g.steps.len(), counts);
    for r in 0..9 {
        let row: Vec<String> = (0..9).map(|c| { let i = r * 9 + c; if placed[i] > 0 { format!("[{}]", placed[i]) } else { (1..=9).filter(|v| cand[i] & (1 << (v - 1)) != 0).map(|v| v.to_string()).collect() } }).collect();
        println!("{}", row.iter().map(|s| format!("{s:>9}")).collect::<Vec<_>>().join(""));
    }
}
