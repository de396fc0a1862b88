// A tokenizer over chars with peeking by index, and a shunting-yard evaluator to RPN.
#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Num(f64),
    Op(char),
    LParen,
    RParen,
}

fn tokenize(s: &str) -> Result<Vec<Tok>, String> {
    let chars: Vec<char> = s.chars().collect();
    let mut i = 0;
    let mut out = Vec::new();
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() {
            i += 1;
        } else if c.is_ascii_digit() || c == '.' {
            let start = i;
            while i < chars.len() && (chars[i].is_ascii_digit() || chars[i] == '.') {
                i += 1;
            }
            let text: String = chars[start..i].iter().collect();
            out.push(Tok::Num(text.parse::<f64>().map_err(|e| format!("{}: {:?}", text, e.to_string()))?));
        } else if "+-*/^".contains(c) {
            out.push(Tok::Op(c));
            i += 1;
        } else if c == '(' {
            out.push(Tok::LParen);
            i += 1;
        } else if c == ')' {
            out.push(Tok::RParen);
            i += 1;
        } else {
            return Err(format!("unexpected {:?} at {}", c, i));
        }
    }
    Ok(out)
}

fn prec(op: char) -> (u8, bool) {
    match op {
        '+' | '-' => (1, false),
        '*' | '/' => (2, false),
        '^' => (3, true),
        _ => (0, false),
    }
}

fn to_rpn(toks: &[Tok]) -> Vec<Tok> {
    let mut out = Vec::new();
    let mut stack: Vec<Tok> = Vec::new();
    for t in toks {
        match t {
            Tok::Num(_) => out.push(t.clone()),
            Tok::Op(o) => {
                while let Some(Tok::Op(top)) = stack.last() {
                    let (p1, right) = prec(*o);
                    let (p2, _) = prec(*top);
                    if p2 > p1 || (p2 == p1 && !right) {
                        out.push(stack.pop().unwrap());
                    } else {
                        break;
                    }
                }
                stack.push(t.clone());
            }
            Tok::LParen => stack.push(Tok::LParen),
            Tok::RParen => {
                while let Some(top) = stack.pop() {
                    if top == Tok::LParen {
                        break;
                    }
                    out.push(top);
                }
            }
        }
    }
    while let Some(t) = stack.pop() {
        out.push(t);
    }
    out
}

fn eval(rpn: &[Tok]) -> Option<f64> {
    let mut st: Vec<f64> = Vec::new();
    for t in rpn {
        match t {
            Tok::Num(n) => st.push(*n),
            Tok::Op(o) => {
                let b = st.pop()?;
                let a = st.pop()?;
                st.push(match o {
                    '+' => a + b,
                    '-' => a - b,
                    '*' => a * b,
                    '/' => a / b,
                    '^' => a.powf(b),
                    _ => return None,
                });
            }
            _ => return None,
        }
    }
    if st.len() == 1 { st.pop() } else { None }
}

fn main() {
    for src in ["1 + 2 * 3", "(1 + 2) * 3", "2 ^ 3 ^ 2", "10 / 4 - 0.5", "1 +", "3 $ 4"] {
        match tokenize(src) {
            Ok(toks) => {
                let rpn = to_rpn(&toks);
                let shown: Vec<String> = rpn.iter().map(|t| match t {
                    Tok::Num(n) => n.to_string(),
                    Tok::Op(o) => o.to_string(),
                    _ => "?".to_string(),
                }).collect();
                println!("{} => {} => {:?}", src, shown.join(" "), eval(&rpn));
            }
            Err(e) => println!("{} => error: {}", src, e),
        }
    }
}
