// A binary search tree with Box: insert, contains, in-order traversal, height.
#[derive(Debug)]
enum Tree {
    Leaf,
    Node(Box<Tree>, i32, Box<Tree>),
}

impl Tree {
    fn insert(self, v: i32) -> Tree {
        match self {
            Tree::Leaf => Tree::Node(Box::new(Tree::Leaf), v, Box::new(Tree::Leaf)),
            Tree::Node(l, x, r) => {
                if v < x {
                    Tree::Node(Box::new(l.insert(v)), x, r)
                } else if v > x {
                    Tree::Node(l, x, Box::new(r.insert(v)))
                } else {
                    Tree::Node(l, x, r)
                }
            }
        }
    }
    fn contains(&self, v: i32) -> bool {
        match self {
            Tree::Leaf => false,
            Tree::Node(l, x, r) => {
                if v == *x {
                    true
                } else if v < *x {
                    l.contains(v)
                } else {
                    r.contains(v)
                }
            }
        }
    }
    fn inorder(&self, out: &mut Vec<i32>) {
        if let Tree::Node(l, x, r) = self {
            l.inorder(out);
            out.push(*x);
            r.inorder(out);
        }
    }
    fn height(&self) -> usize {
        match self {
            Tree::Leaf => 0,
            Tree::Node(l, _, r) => 1 + l.height().max(r.height()),
        }
    }
}

fn main() {
    let mut t = Tree::Leaf;
    for v in [50, 30, 70, 20, 40, 60, 80, 30, 65] {
        t = t.insert(v);
    }
    let mut out = Vec::new();
    t.inorder(&mut out);
    println!("{:?}", out);
    println!("{} {} {}", t.contains(65), t.contains(66), t.height());
}
