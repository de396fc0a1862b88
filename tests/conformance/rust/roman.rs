// Roman numerals both ways, and integer to English words.
fn to_roman(mut n: u32) -> String {
    let table = [(1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"), (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")];
    let mut s = String::new();
    for &(v, r) in table.iter() {
        while n >= v {
            s += r;
            n -= v;
        }
    }
    s
}

fn from_roman(s: &str) -> u32 {
    let val = |c: char| match c {
        'I' => 1,
        'V' => 5,
        'X' => 10,
        'L' => 50,
        'C' => 100,
        'D' => 500,
        'M' => 1000,
        _ => 0,
    };
    let cs: Vec<u32> = s.chars().map(val).collect();
    let mut total = 0;
    for i in 0..cs.len() {
        if i + 1 < cs.len() && cs[i] < cs[i + 1] {
            total -= cs[i] as i64;
        } else {
            total += cs[i] as i64;
        }
    }
    total as u32
}

fn words(n: u32) -> String {
    let ones = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"];
    let tens = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"];
    if n < 20 {
        ones[n as usize].to_string()
    } else if n < 100 {
        let t = tens[(n / 10) as usize].to_string();
        if n % 10 == 0 { t } else { format!("{}-{}", t, ones[(n % 10) as usize]) }
    } else {
        let h = format!("{} hundred", ones[(n / 100) as usize]);
        if n % 100 == 0 { h } else { format!("{} and {}", h, words(n % 100)) }
    }
}

fn main() {
    for n in [1, 4, 9, 14, 40, 90, 400, 1994, 2024, 3999] {
        let r = to_roman(n);
        println!("{} {} {}", n, r, from_roman(&r));
    }
    for n in [0, 13, 42, 100, 999] {
        println!("{}", words(n));
    }
}
