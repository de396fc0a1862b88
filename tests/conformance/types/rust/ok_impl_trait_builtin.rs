trait Describe {
    fn describe(&self) -> String;
    fn loud(&self) -> String { self.describe().to_uppercase() }
}
impl Describe for i64 { fn describe(&self) -> String { format!("int {}", self) } }
impl Describe for &str { fn describe(&self) -> String { format!("text of {}", self.len()) } }
impl Describe for Vec<i64> { fn describe(&self) -> String { format!("{} ints", self.len()) } }
impl Describe for bool { fn describe(&self) -> String { if *self { "yes".to_string() } else { "no".to_string() } } }
fn both<T: Describe>(x: T) -> String { format!("{} / {}", x.describe(), x.loud()) }
fn main() {
    println!("{}", both(7i64));
    println!("{}", both("hey"));
    println!("{}", both(vec![1, 2, 3]));
    println!("{}", both(true));
}
