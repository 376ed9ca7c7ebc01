package logs

import (
	"bytes"
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// memoRef is the reading clock of the lineMemo tests.
var memoRef = time.Date(2026, 12, 7, 3, 0, 0, 0, time.UTC)

// memoLines are the lines of the fixtures (the training corpus's too: no
// held-out log) a lineMemo keeps, each with its interner after reading
// it and the place of what it kept in the line.
func memoLines(t testing.TB) (lines [][]byte, learned []*memoLine, offs []int) {
	all, err := filepath.Glob("testdata/*/*.log")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range all {
		if strings.HasPrefix(name, "testdata/heldout") {
			continue // never read here
		}
		raw, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range bytes.Split(raw, []byte("\n")) {
			l = trimEOL(l)
			in := newInterner()
			var r Record
			parseInto(l, parseRef{at: memoRef, intern: in}, &r)
			for s := range in.lines.sets {
				for w := range in.lines.sets[s].way {
					if m := &in.lines.sets[s].way[w]; m.line != nil {
						if off := bytes.Index(l, m.line); off >= 0 {
							lines, learned, offs = append(lines, l), append(learned, m), append(offs, off)
						}
					}
				}
			}
		}
	}
	if len(lines) < 100 {
		t.Fatalf("%d lines kept, want the JSON lines of the fixtures", len(lines))
	}
	return lines, learned, offs
}

// TestLineMemoIsParse: a line a lineMemo keeps, its time and reconcileID
// changed at random (other years, other digits, any token) and its name
// (memoname.go) in all its places, is read by the memo as the record parse
// makes of it; changed anywhere else, or its name in one place alone, it
// is not read by the memo.
func TestLineMemoIsParse(t *testing.T) {
	rng := rand.New(rand.NewSource(56))
	lines, learned, offs := memoLines(t)
	const tokens = "0123456789abcdefABCDEFxyzXYZ.:+-"
	const nameBytes = "abcxyz0189-."
	hits, limiterChanged, names := 0, 0, 0
	for i, line := range lines {
		m, off := learned[i], offs[i]
		for try := 0; try < 20; try++ {
			mut := bytes.Clone(line)
			for _, s := range []span{m.at, m.id} {
				tok := mut[off+s.from : off+s.to]
				switch n := rng.Intn(4); {
				case n == 3 && s.quoted: // any text of a string
					for j := range tok {
						for tok[j] = byte(0x20 + rng.Intn(0xe0)); tok[j] == '"' || tok[j] == '\\'; {
							tok[j] = byte(0x20 + rng.Intn(0xe0))
						}
					}
				case n == 0: // another year of the same time
					if len(tok) >= 4 && bytes.IndexFunc(tok[:4], func(r rune) bool { return r < '0' || r > '9' }) < 0 {
						y := 2015 + rng.Intn(16)
						copy(tok, []byte{byte('0' + y/1000), byte('0' + y/100%10), byte('0' + y/10%10), byte('0' + y%10)})
					}
				case n == 1: // other digits
					for j := range tok {
						if tok[j] >= '0' && tok[j] <= '9' {
							tok[j] = byte('0' + rng.Intn(10))
						}
					}
				default: // any token
					for j := range tok {
						tok[j] = tokens[rng.Intn(len(tokens))]
					}
				}
			}
			if m.nnames > 0 && rng.Intn(2) == 0 { // another name, in each of its places
				n := m.names[0]
				name := make([]byte, n.to-n.from)
				for j := range name {
					name[j] = nameBytes[rng.Intn(len(nameBytes))]
				}
				for _, s := range m.names[:m.nnames] {
					copy(mut[off+s.from:off+s.to], name)
				}
				names++
			}
			want, wantOut := parse(mut, parseRef{at: memoRef})
			var got Record
			ref := parseRef{at: memoRef, intern: newInterner()}
			ref.intern.lines.sets[len(m.line)%memoSets].way[0] = *m
			if !ref.intern.lines.read(mut[off:off+len(m.line)], &ref, &got) {
				t.Fatalf("line %q, changed to %q: not read by the memo", line, mut)
			}
			if wantOut != outRecord || !reflect.DeepEqual(got, want) {
				t.Fatalf("line %q, changed to %q:\nmemo  %+v\nparse %+v (%d)", line, mut, got, want, wantOut)
			}
			if other := ref.intern.lines.other; other != setsOther(&got) {
				t.Fatalf("line %q, changed to %q: the memo says it sets a field after heldFields: %v; setsOther: %v", line, mut, other, !other)
			}
			hits++
			if got.Limiter != m.r.Limiter {
				limiterChanged++
			}
		}
		if m.nnames > 1 { // another name in one of its places alone: another line
			mut := bytes.Clone(line[off : off+len(m.line)])
			n := m.names[rng.Intn(m.nnames)]
			for j := n.from; j < n.to; j++ {
				if mut[j] = 'a'; line[off+j] == 'a' {
					mut[j] = 'b'
				}
			}
			ref := parseRef{at: memoRef, intern: newInterner()}
			ref.intern.lines.sets[len(m.line)%memoSets].way[0] = *m
			var got Record
			if ref.intern.lines.read(mut, &ref, &got) {
				t.Fatalf("line %q, changed to %q in one place of its name: read by the memo", line, mut)
			}
		}
		// One byte changed outside the time and reconcileID: another line.
		mut := bytes.Clone(line[off : off+len(m.line)])
		j := rng.Intn(len(mut))
		if in := func(s span) bool { return s.to > 0 && j >= s.from && j < s.to }; !in(m.at) && !in(m.id) {
			mut[j] ^= 0x20
			ref := parseRef{at: memoRef, intern: newInterner()}
			ref.intern.lines.sets[len(m.line)%memoSets].way[0] = *m
			var got Record
			if ref.intern.lines.read(mut, &ref, &got) {
				t.Fatalf("line %q, changed to %q outside its time and reconcileID: read by the memo", line, mut)
			}
		}
	}
	if names == 0 {
		t.Error("no line kept with its name: the memo of names is not tested")
	}
	t.Logf("%d lines, %d reads by the memo, %d of another limiter than the line's, %d of another name", len(lines), hits, limiterChanged, names)
}

// BenchmarkLineMemo parses the fixtures' JSON lines the memo keeps, each
// read twice, its time changed the second: with the memo (the second read
// is a hit) and without it (both are decoded), side by side.
func BenchmarkLineMemo(b *testing.B) {
	lines, learned, offs := memoLines(b)
	var again [][]byte
	for i, l := range lines {
		mut := bytes.Clone(l)
		if s := learned[i].at; s.to > 0 {
			if c := &mut[offs[i]+s.to-1]; *c >= '0' && *c <= '8' {
				*c++
			}
		}
		again = append(again, mut)
	}
	for _, bc := range []struct {
		name string
		in   func() *interner
	}{{"memo", newInterner}, {"no-memo", func() *interner { in := newInterner(); in.noMemo = true; return in }}} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			var r Record
			in := bc.in()
			for b.Loop() {
				for i, l := range lines {
					parseInto(l, parseRef{at: memoRef, intern: in}, &r)
					parseInto(again[i], parseRef{at: memoRef, intern: in}, &r)
				}
			}
		})
	}
}

// TestMemoTokenIsItsBytes: the table says what the bytes are, for each of
// the 256.
func TestMemoTokenIsItsBytes(t *testing.T) {
	for c := 0; c < 256; c++ {
		want := strings.IndexByte("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.:+-", byte(c)) >= 0
		if got := memoToken([]byte{byte(c)}); got != want {
			t.Errorf("memoToken(%q) = %v, want %v", byte(c), got, want)
		}
	}
}

// TestPlainTextIsByByte: plainText, eight bytes at a time, says what a
// test of each byte says, on random text of quotes, backslashes, control
// bytes, UTF-8 and bytes above 0x7f.
func TestPlainTextIsByByte(t *testing.T) {
	rng := rand.New(rand.NewSource(8))
	alphabet := []byte("aZ09-:.T \"\\\x00\x1b\x1f\x7f\x80\xff\xc3\xa9{},")
	for try := 0; try < 100000; try++ {
		v := make([]byte, rng.Intn(40))
		for i := range v {
			if rng.Intn(8) == 0 {
				v[i] = alphabet[rng.Intn(len(alphabet))]
			} else {
				v[i] = byte('a' + rng.Intn(26))
			}
		}
		want := true
		for _, c := range v {
			if c == '"' || c == '\\' || c < 0x20 {
				want = false
			}
		}
		if got := plainText(v); got != want {
			t.Fatalf("plainText(%q) = %v, want %v", v, got, want)
		}
	}
}
