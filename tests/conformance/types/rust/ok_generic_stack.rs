struct Stack<T> { items: Vec<T> }
impl<T> Stack<T> {
    fn new() -> Stack<T> { Stack { items: Vec::new() } }
    fn push(&mut self, x: T) { self.items.push(x) }
    fn pop(&mut self) -> Option<T> { self.items.pop() }
    fn size(&self) -> i64 { self.items.len() as i64 }
}
fn main() {
    let mut a = Stack::new();
    a.push(1);
    a.push(2);
    println!("{:?}", a.pop());
    println!("{}", a.size());
    let mut b = Stack { items: Vec::new() };
    b.push("x");
    println!("{:?}", b.pop());
    println!("{:?}", b.pop());
}
