enum Tree<T> {
    Leaf(T),
    Node(Box<Tree<T>>, Box<Tree<T>>),
}
fn fold_tree<T: Clone, A>(t: Tree<T>, init: A, f: fn(A, T) -> A) -> A {
    match t {
        Tree::Leaf(x) => f(init, x),
        Tree::Node(l, r) => {
            let a = fold_tree(*l, init, f);
            fold_tree(*r, a, f)
        }
    }
}
fn main() {
    let t = Tree::Node(Box::new(Tree::Leaf(3)), Box::new(Tree::Node(Box::new(Tree::Leaf(4)), Box::new(Tree::Leaf(5)))));
    println!("{}", fold_tree(t, 0, |a, x| a + x));
    let s = Tree::Node(Box::new(Tree::Leaf("x")), Box::new(Tree::Leaf("yz")));
    println!("{}", fold_tree(s, 0, |a, x: &str| a + x.len()));
}
