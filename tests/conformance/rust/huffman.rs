// Huffman coding: build the tree from character counts, print code lengths
// and the encoded size of the text.
use std::collections::HashMap;

enum Node {
    Leaf(char, u32),
    Inner(Box<Node>, Box<Node>, u32),
}

fn weight(n: &Node) -> u32 {
    match n {
        Node::Leaf(_, w) => *w,
        Node::Inner(_, _, w) => *w,
    }
}

fn codes(n: &Node, depth: usize, out: &mut Vec<(char, usize)>) {
    match n {
        Node::Leaf(c, _) => out.push((*c, depth.max(1))),
        Node::Inner(a, b, _) => {
            codes(a, depth + 1, out);
            codes(b, depth + 1, out);
        }
    }
}

fn main() {
    let text = "this is an example of a huffman tree";
    let mut counts: HashMap<char, u32> = HashMap::new();
    for c in text.chars() {
        *counts.entry(c).or_insert(0) += 1;
    }
    let mut nodes: Vec<Node> = counts.iter().map(|(&c, &w)| Node::Leaf(c, w)).collect();
    while nodes.len() > 1 {
        // the two lightest, ties broken by the smallest char in the subtree order
        nodes.sort_by(|a, b| weight(b).cmp(&weight(a)));
        let a = nodes.pop().unwrap();
        let b = nodes.pop().unwrap();
        let w = weight(&a) + weight(&b);
        nodes.push(Node::Inner(Box::new(a), Box::new(b), w));
    }
    let root = nodes.pop().unwrap();
    let mut out = Vec::new();
    codes(&root, 0, &mut out);
    let total: usize = out.iter().map(|&(c, len)| len * counts[&c] as usize).sum();
    println!("symbols: {}", out.len());
    println!("weight: {}", weight(&root));
    println!("encoded bits: {}", total);
}
