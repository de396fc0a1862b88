// An inventory: structs in a Vec, sorting by keys, grouping in a HashMap, Option chains.
use std::collections::HashMap;

#[derive(Debug, Clone, PartialEq)]
struct Item {
    name: String,
    category: String,
    price_cents: u64,
    qty: u32,
}

impl Item {
    fn new(name: &str, category: &str, price_cents: u64, qty: u32) -> Self {
        Item { name: name.to_string(), category: category.to_string(), price_cents, qty }
    }
    fn value(&self) -> u64 {
        self.price_cents * self.qty as u64
    }
}

fn dollars(cents: u64) -> String {
    format!("${}.{:02}", cents / 100, cents % 100)
}

const LOW_STOCK: u32 = 3;

fn main() {
    let mut items = vec![
        Item::new("hammer", "tools", 1299, 4),
        Item::new("nails", "hardware", 499, 120),
        Item::new("saw", "tools", 2450, 2),
        Item::new("glue", "supplies", 350, 0),
        Item::new("screws", "hardware", 599, 75),
        Item::new("tape", "supplies", 275, 9),
    ];
    items.sort_by_key(|i| std::cmp::Reverse(i.value()));
    for it in &items {
        println!("{:<8} {:>10} x{:<4} = {:>10}", it.name, dollars(it.price_cents), it.qty, dollars(it.value()));
    }
    let mut by_cat: HashMap<String, Vec<String>> = HashMap::new();
    for it in &items {
        by_cat.entry(it.category.clone()).or_insert_with(Vec::new).push(it.name.clone());
    }
    let mut cats: Vec<_> = by_cat.keys().cloned().collect();
    cats.sort();
    for c in &cats {
        let mut names = by_cat[c].clone();
        names.sort();
        println!("{}: {}", c, names.join(", "));
    }
    let low: Vec<&str> = items.iter().filter(|i| i.qty < LOW_STOCK).map(|i| i.name.as_str()).collect();
    println!("low stock: {:?}", low);
    let total: u64 = items.iter().map(Item::value).sum();
    println!("total {}", dollars(total));
    let priciest = items.iter().max_by_key(|i| i.price_cents).map(|i| i.name.clone());
    println!("{:?}", priciest);
    let found = items.iter().find(|i| i.name.starts_with("sc")).map(|i| i.qty).unwrap_or(0);
    println!("{}", found);
    if let Some(pos) = items.iter().position(|i| i.name == "glue") {
        let removed = items.remove(pos);
        println!("removed {} at {}", removed.name, pos);
    }
    println!("{}", items.len());
}
