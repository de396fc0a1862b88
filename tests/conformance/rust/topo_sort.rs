// Topological sort (Kahn's algorithm) and cycle detection with DFS on a HashMap graph.
use std::collections::{BTreeMap, BTreeSet, HashMap};

fn kahn(edges: &[(&str, &str)]) -> Option<Vec<String>> {
    let mut indeg: BTreeMap<&str, usize> = BTreeMap::new();
    let mut adj: HashMap<&str, Vec<&str>> = HashMap::new();
    for &(a, b) in edges {
        indeg.entry(a).or_insert(0);
        *indeg.entry(b).or_insert(0) += 1;
        adj.entry(a).or_insert_with(Vec::new).push(b);
    }
    let mut ready: BTreeSet<&str> = indeg.iter().filter(|(_, &d)| d == 0).map(|(&k, _)| k).collect();
    let mut out = Vec::new();
    while let Some(&n) = ready.iter().next() {
        ready.remove(n);
        out.push(n.to_string());
        if let Some(next) = adj.get(n) {
            for &m in next {
                let d = indeg.get_mut(m).unwrap();
                *d -= 1;
                if *d == 0 {
                    ready.insert(m);
                }
            }
        }
    }
    if out.len() == indeg.len() { Some(out) } else { None }
}

fn main() {
    let e = [("shirt", "tie"), ("tie", "jacket"), ("pants", "shoes"), ("pants", "belt"), ("belt", "jacket"), ("shirt", "belt"), ("socks", "shoes")];
    println!("{:?}", kahn(&e));
    println!("{:?}", kahn(&[("a", "b"), ("b", "c"), ("c", "a")]));
}
