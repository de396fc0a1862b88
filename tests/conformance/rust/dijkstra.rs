// Dijkstra's shortest paths with a BinaryHeap and Reverse.
use std::cmp::Reverse;
use std::collections::BinaryHeap;

fn dijkstra(adj: &Vec<Vec<(usize, u64)>>, src: usize) -> Vec<u64> {
    let mut dist = vec![u64::MAX; adj.len()];
    let mut heap = BinaryHeap::new();
    dist[src] = 0;
    heap.push(Reverse((0u64, src)));
    while let Some(Reverse((d, u))) = heap.pop() {
        if d > dist[u] {
            continue;
        }
        for &(v, w) in &adj[u] {
            let nd = d + w;
            if nd < dist[v] {
                dist[v] = nd;
                heap.push(Reverse((nd, v)));
            }
        }
    }
    dist
}

fn main() {
    let n = 6;
    let mut adj = vec![Vec::new(); n];
    let edges = [(0, 1, 7), (0, 2, 9), (0, 5, 14), (1, 2, 10), (1, 3, 15), (2, 3, 11), (2, 5, 2), (3, 4, 6), (4, 5, 9)];
    for &(a, b, w) in edges.iter() {
        adj[a].push((b, w));
        adj[b].push((a, w));
    }
    let d = dijkstra(&adj, 0);
    for (i, x) in d.iter().enumerate() {
        println!("0 -> {}: {}", i, x);
    }
}
