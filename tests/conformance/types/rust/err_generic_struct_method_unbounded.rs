trait Describe { fn describe(&self) -> String; }
struct Wrapper<T> { inner: T }
impl<T> Wrapper<T> {
    fn show(&self) -> String {
        self.inner.describe() // <-
    }
}
fn main() { println!("{}", Wrapper { inner: 1 }.show()) }
