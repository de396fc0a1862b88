trait Show { fn show(&self) -> String; }
impl Show for i64 { fn show(&self) -> String { format!("#{}", self) } }
struct Wrapper<T> { inner: T }
impl<T: Show> Show for Wrapper<T> {
    fn show(&self) -> String { format!("[{}]", self.inner.show()) }
}
fn print_it<T: Show>(x: T) { println!("{}", x.show()) }
fn main() {
    print_it(5i64);
    print_it(Wrapper { inner: 6i64 });
    print_it(Wrapper { inner: Wrapper { inner: 7i64 } });
}
