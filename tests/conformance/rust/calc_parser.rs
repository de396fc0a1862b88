// A tokenizer and recursive-descent evaluator for integer arithmetic.
#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Num(i64),
    Op(char),
    LParen,
    RParen,
}

fn tokenize(s: &str) -> Vec<Tok> {
    let cs: Vec<char> = s.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < cs.len() {
        let c = cs[i];
        if c.is_ascii_digit() {
            let mut n = 0i64;
            while i < cs.len() && cs[i].is_ascii_digit() {
                n = n * 10 + cs[i].to_digit(10).unwrap() as i64;
                i += 1;
            }
            out.push(Tok::Num(n));
            continue;
        }
        match c {
            '+' | '-' | '*' | '/' => out.push(Tok::Op(c)),
            '(' => out.push(Tok::LParen),
            ')' => out.push(Tok::RParen),
            _ => {}
        }
        i += 1;
    }
    out
}

struct Parser {
    toks: Vec<Tok>,
    pos: usize,
}

impl Parser {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.pos)
    }
    fn expr(&mut self) -> i64 {
        let mut v = self.term();
        while let Some(Tok::Op(c)) = self.peek().cloned() {
            if c != '+' && c != '-' {
                break;
            }
            self.pos += 1;
            let r = self.term();
            v = if c == '+' { v + r } else { v - r };
        }
        v
    }
    fn term(&mut self) -> i64 {
        let mut v = self.atom();
        while let Some(Tok::Op(c)) = self.peek().cloned() {
            if c != '*' && c != '/' {
                break;
            }
            self.pos += 1;
            let r = self.atom();
            v = if c == '*' { v * r } else { v / r };
        }
        v
    }
    fn atom(&mut self) -> i64 {
        let t = self.toks[self.pos].clone();
        self.pos += 1;
        match t {
            Tok::Num(n) => n,
            Tok::LParen => {
                let v = self.expr();
                self.pos += 1;
                v
            }
            Tok::Op('-') => -self.atom(),
            _ => panic!("unexpected {:?}", t),
        }
    }
}

fn main() {
    for src in ["1 + 2 * 3", "(1 + 2) * 3", "100 / (4 - 2) - -3", "2 * (3 + (4 - 1)) * 5"] {
        let toks = tokenize(src);
        let mut p = Parser { toks, pos: 0 };
        println!("{} = {}", src, p.expr());
    }
    println!("{:?}", tokenize("12+(3)"));
}
