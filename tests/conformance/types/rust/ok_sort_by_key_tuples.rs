#[derive(Debug, Clone)]
struct P { name: String, age: i64 }
fn main() {
    let mut ps = [P { name: "cy".to_string(), age: 30 }, P { name: "al".to_string(), age: 25 }, P { name: "bo".to_string(), age: 30 }];
    ps.sort_by_key(|p| (-p.age, p.name.clone()));
    let names: Vec<String> = ps.iter().map(|p| p.name.clone()).collect();
    println!("{:?}", names);
    ps.sort_by(|a, b| a.name.cmp(&b.name));
    println!("{:?}", ps[0]);
}
