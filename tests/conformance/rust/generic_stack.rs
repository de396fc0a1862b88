// A generic Stack<T> with impl blocks, Option returns, and a bracket matcher using it.
#[derive(Debug, Default)]
struct Stack<T> {
    items: Vec<T>,
}

impl<T: Clone + std::fmt::Debug> Stack<T> {
    fn new() -> Self {
        Stack { items: Vec::new() }
    }
    fn push(&mut self, x: T) {
        self.items.push(x);
    }
    fn pop(&mut self) -> Option<T> {
        self.items.pop()
    }
    fn peek(&self) -> Option<&T> {
        self.items.last()
    }
    fn len(&self) -> usize {
        self.items.len()
    }
    fn is_empty(&self) -> bool {
        self.items.is_empty()
    }
}

fn balanced(s: &str) -> bool {
    let mut st: Stack<char> = Stack::new();
    for c in s.chars() {
        match c {
            '(' | '[' | '{' => st.push(c),
            ')' | ']' | '}' => {
                let want = match c {
                    ')' => '(',
                    ']' => '[',
                    _ => '{',
                };
                if st.pop() != Some(want) {
                    return false;
                }
            }
            _ => {}
        }
    }
    st.is_empty()
}

fn main() {
    let mut s = Stack::new();
    for w in ["a", "b", "c"] {
        s.push(w.to_string());
    }
    println!("{:?} {} {:?}", s.peek(), s.len(), s);
    println!("{:?} {:?}", s.pop(), s.pop());
    for t in ["([]{})", "([)]", "((", ""] {
        println!("{:?} {}", t, balanced(t));
    }
}
