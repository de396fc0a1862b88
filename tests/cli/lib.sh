# Shared assertions for the shell tests under tests/cli (source it after
# setting -u). Each assertion prints "ok   NAME" or "FAIL NAME: why" and
# counts failures in $fails; end a script with `finish`.
fails=0
ok() { echo "ok   $1"; }
bad() { echo "FAIL $1"; fails=$((fails + 1)); }
check() {  # check NAME WANT_CODE GOT_CODE
  if [ "$2" != "$3" ]; then bad "$1: exit $3, want $2"; else ok "$1"; fi
}
contains() {  # contains NAME FILE TEXT
  if grep -qF -- "$3" "$2"; then ok "$1"; else bad "$1: '$3' not in:"; cat "$2"; fi
}
lacks() {  # lacks NAME FILE TEXT
  if grep -qF -- "$3" "$2"; then bad "$1: '$3' in:"; cat "$2"; else ok "$1"; fi
}
same() {  # same NAME FILE WANT_TEXT: the file is exactly the text
  if [ "$(cat "$2")" == "$3" ]; then ok "$1"; else bad "$1: got:"; cat "$2"; echo "--- want:"; echo "$3"; fi
}
identical() {  # identical NAME WANT_FILE GOT_FILE
  local d
  if d="$(diff -u "$2" "$3")"; then ok "$1"; else bad "$1: differ:"; echo "$d"; fi
}
empty() {  # empty NAME FILE
  if [ ! -s "$2" ]; then ok "$1"; else bad "$1: expected no output, got:"; cat "$2"; fi
}
finish() {  # the script's last line: report and exit with the verdict
  echo "$fails failure(s)"
  [ "$fails" = 0 ]
}
