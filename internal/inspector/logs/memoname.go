package logs

import "bytes"

// A controller failing on many keys at once writes, key after key, the
// same line but for its time, its reconcileID and the key's name: zap's
// "Reconciler error" of one error for a thousand objects. So lineMemo keeps
// where a line's name is too, when the record's key was read from its
// namespace and name members (a dialect's default, keyFromName) and the
// name is a plain one (memoName); a line the same but for one plain name,
// of the same length, in each of those places, is the record of that name.
//
// Why that is the record parse makes of the line: the places are the
// values of the line's members named "name", its own (one) and those of
// its objects (the klog.ObjectRef of controllers built with For()). Its
// own is the record's Name and nothing else: the dialect's default reads
// the key from namespace and name alone, and a name that is no empty
// string is not asked for anything else (key fields hold a "/", a plain
// name holds none). An object's members are not read at all while the
// line has a name member: the object is the reference read only for a
// line that names none (fields.ref). A "name" found where a member starts
// (after "{" or ",") is no text inside a string, whose quotes are escaped.
// TestLineMemoIsParse checks it on the JSON lines of the fixtures, their
// names changed at random too.

// memoNames bounds the places of a name kept: the name member and a few
// objects'.
const memoNames = 4

// nameMember opens a member named "name" whose value is a string.
var nameMember = []byte(`"name":"`)

// nameSpans puts in names where raw's text, the value of body's name
// member, is the value of a member named "name" (the member itself
// among them), and says how many; 0 when raw is no plain name or the
// places are more than memoNames.
func nameSpans(body, raw []byte, names *[memoNames]span) int {
	own, ok := spanOf(body, raw)
	if !ok || !own.quoted || !memoName(body[own.from:own.to]) {
		return 0
	}
	name := body[own.from:own.to]
	n, found := 0, false
	for i := 0; ; {
		j := bytes.Index(body[i:], nameMember)
		if j < 0 {
			break
		}
		i += j
		from := i + len(nameMember)
		if i > 0 && (body[i-1] == '{' || body[i-1] == ',') && bytes.HasPrefix(body[from:], name) &&
			from+len(name) < len(body) && body[from+len(name)] == '"' {
			if n == memoNames {
				return 0
			}
			names[n] = span{from: from, to: from + len(name), quoted: true}
			found = found || from == own.from
			n++
		}
		i = from
	}
	if !found {
		return 0
	}
	return n
}

// memoName says whether v is a plain name: lower-case letters, digits,
// "-" and ".", as an object's name is (a DNS subdomain), 1 to 253 bytes.
func memoName(v []byte) bool {
	if len(v) == 0 || len(v) > 253 {
		return false
	}
	for _, c := range v {
		if !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-' || c == '.') {
			return false
		}
	}
	return true
}
