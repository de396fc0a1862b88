#[derive(Debug)]
struct Req { url: String, retries: i64, tags: Vec<String> }
impl Req {
    fn new(url: &str) -> Self { Req { url: url.to_string(), retries: 0, tags: Vec::new() } }
    fn retries(self, n: i64) -> Self { Req { retries: n, ..self } }
    fn tag(mut self, t: &str) -> Self {
        self.tags.push(t.to_string());
        self
    }
}
fn main() {
    let r = Req::new("http://x").retries(3).tag("a").tag("b");
    println!("{}", r.retries + r.tags.len() as i64);
    println!("{:?}", r);
}
