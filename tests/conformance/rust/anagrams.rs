// Grouping anagrams with a HashMap<String, Vec<String>>, sorted output.
use std::collections::HashMap;

fn main() {
    let words = ["eat", "tea", "tan", "ate", "nat", "bat"];
    let mut groups: HashMap<String, Vec<String>> = HashMap::new();
    for w in words.iter() {
        let mut k: Vec<char> = w.chars().collect();
        k.sort();
        let key: String = k.into_iter().collect();
        groups.entry(key).or_default().push(w.to_string());
    }
    let mut out: Vec<Vec<String>> = groups.into_values().collect();
    for g in out.iter_mut() {
        g.sort();
    }
    out.sort_by(|a, b| b.len().cmp(&a.len()).then_with(|| a[0].cmp(&b[0])));
    for g in &out {
        println!("{}", g.join(","));
    }
}
