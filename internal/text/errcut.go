package text

import (
	"regexp"
	"slices"
	"strings"
	"unicode"
)

// An error cut to a column must keep what names its cause. A middle cut
// at a fixed share kept `pods "web-5fc9f4b…used: pods=0, limited: pods=0`
// of kube-controller-manager's `… pods "web-5fc9f4bf66-5wc4w" is
// forbidden: exceeded quota: q, requested: pods=1, used: pods=0, limited:
// pods=0`: the generated name and the quota's counts, not "exceeded quota:
// q". CutError first shortens what a reader does not act on (a generated
// suffix, a UID), then keeps the whole words that weigh most: a quoted
// name that is not generated (a webhook's, a quota's), the first word of
// a clause (after ": ", where a wrapped error states its cause), words
// before connectives, counts (key=value) and their labels last. The
// full text stays in describe and the detail view.

// generatedName is a name a controller made: a stem and one or more parts
// of the Kubernetes' random-suffix alphabet (no vowels, digits 2-9),
// 5 to 10 long with a digit: a pod's "-5wc4w", a ReplicaSet's
// pod-template hash "-5fc9f4bf66".
var generatedName = regexp.MustCompile(`^(.*?[a-z0-9])((?:-[bcdfghjklmnpqrstvwxz2-9]{5,10})+)$`)

// uid is a Kubernetes object's UID.
var uid = regexp.MustCompile(`\b([0-9a-f]{8})-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b`)

// quoted is a double-quoted name, without spaces.
var quoted = regexp.MustCompile(`"[^"\s]{1,253}"`)

// ShortenNames shortens in s what names an object but says nothing a
// reader acts on: a quoted name's generated suffix (`pods
// "web-5fc9f4bf66-5wc4w"` → `pods "web-…"`) and a UID to its first eight
// digits ("3f2a9c1e…").
func ShortenNames(s string) string {
	s = uid.ReplaceAllString(s, "$1…")
	return quoted.ReplaceAllStringFunc(s, func(q string) string {
		name := q[1 : len(q)-1]
		m := generatedName.FindStringSubmatch(name)
		if m == nil || !generatedParts(m[2]) {
			return q
		}
		return `"` + m[1] + `-…"`
	})
}

// generatedParts says each "-part" of parts has a digit: a word of the
// alphabet's consonants alone ("-sync") is a word, not a random suffix.
func generatedParts(parts string) bool {
	for _, p := range strings.Split(parts[1:], "-") {
		if !strings.ContainsFunc(p, unicode.IsDigit) {
			return false
		}
	}
	return true
}

// CutError fits an error message in at most n (as m measures): whole as it
// is when it fits, else with its generated names shortened (ShortenNames),
// else its weightiest whole words around one or two "…" (see above). In
// fewer than minWordCut, or when one word too long stands in the way, it is
// cut in the middle, as CutMiddle cuts.
func CutError(s string, n int, m Measure) string {
	if m.Width(s) <= n {
		return s
	}
	short := ShortenNames(s)
	if m.Width(short) <= n {
		return short
	}
	if n < minWordCut {
		// Room for a few words: its start and its end, as CutMiddle cuts
		// ("certificate.cert-m…not found" says more than its first word).
		return CutMiddle(short, n, MessageTail(n-1), true, m)
	}
	if cut, ok := cutWords(short, n, m); ok {
		return cut
	}
	return CutMiddle(short, n, MessageTail(n-1), true, m)
}

// minWordCut is the fewest cells an error is cut by its words in: in
// fewer, a name or two fill the room and a whole-word cut keeps one of
// them without the end.
const minWordCut = 40

// cutWords keeps, of s's words, a start and an end ("start…end"), or a
// run in the middle ("…run…"), the one of most weight in n. It fails when
// what it keeps would fill less than a third of n (a long word stands in
// the way).
func cutWords(s string, n int, m Measure) (string, bool) {
	words := strings.Split(s, " ")
	t := len(words)
	w := make([]int, t+1) // w[i]: width of words[:i] counted as one cell per joining space
	v := make([]float64, t+1)
	// The last clause's first word, when it is short: a wrapped error's
	// root cause ("…: 503 Service Unavailable", "…: connection refused").
	last := 0
	for i, word := range words[:t-1] {
		if strings.HasSuffix(word, ":") {
			last = i + 1
		}
	}
	if t-last > 4 {
		last = 0
	}
	// The message's first word, after a mark ("✓ " of a resolved error).
	first := max(0, slices.IndexFunc(words, func(w string) bool { return strings.ContainsFunc(w, isAlnum) }))
	seen := map[string]bool{}
	pos := 0 // the word's place in its clause
	for i, word := range words {
		prev, next := ":", "" // the first word starts a clause
		if i > first {
			prev = words[i-1]
		}
		if i+1 < t {
			next = words[i+1]
		}
		w[i+1] = w[i] + m.Width(word) + 1
		weight := wordWeight(word, prev, next, m)
		if strings.HasSuffix(prev, ":") || strings.HasSuffix(prev, ";") {
			pos = 0
		}
		if pos++; pos > 4 {
			weight /= 2 // a long clause says what it is about first ("please apply your changes to the latest version and try again")
		}
		if i >= last && last > 0 && weight >= 1 {
			weight++ // "…: 503 Service Unavailable"
		}
		if bare := strings.Trim(word, wordPunct); seen[bare] {
			weight *= 0.3 // said already: "container "migrate"" five times over
		} else {
			seen[bare] = true
		}
		if i == first && weight >= 1 {
			weight++ // what failed: "terminal error: …", "admission webhook …"
		}
		v[i+1] = v[i] + weight
	}
	width := func(a, b int) int { // words[a:b] joined
		if b <= a {
			return 0
		}
		return w[b] - w[a] - 1
	}
	type cut struct {
		a, b, c, d int // kept: words[a:b] and words[c:d]
		score      float64
		cells      int
	}
	best := cut{score: -1}
	consider := func(c cut) {
		c.score = v[c.b] - v[c.a] + v[c.d] - v[c.c]
		c.cells = width(c.a, c.b) + width(c.c, c.d)
		if c.score > best.score || c.score == best.score && c.cells > best.cells {
			best = c
		}
	}
	for i := 0; i <= t; i++ { // start words[:i], end words[j:]
		for j := t; j > i; j-- {
			if width(0, i)+1+width(j, t) > n {
				break
			}
			consider(cut{a: 0, b: i, c: j, d: t})
		}
	}
	for a := 1; a < t; a++ { // a run words[a:b] between two cuts
		for b := a + 1; b < t && width(a, b)+2 <= n; b++ {
			consider(cut{a: a, b: b, c: t, d: t})
		}
	}
	if best.score <= 0 || best.cells*3 < n {
		return "", false
	}
	head := strings.Join(words[best.a:best.b], " ")
	if best.a > 0 {
		head = "…" + head
	}
	return head + "…" + strings.Join(words[best.c:best.d], " "), true
}

// wordPunct is what a word is trimmed of to compare it and weigh it.
const wordPunct = ",;:()[]{}."

// isAlnum says r is a letter or a digit: a word, not a mark.
func isAlnum(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// connectives are the words that join an error's parts and name nothing.
var connectives = map[string]bool{"a": true, "an": true, "the": true, "to": true, "of": true, "on": true,
	"in": true, "for": true, "with": true, "and": true, "is": true, "was": true, "be": true, "by": true,
	"at": true, "from": true, "or": true, "as": true, "has": true, "been": true, "failed": true, "error": true, "err": true}

// wordWeight is how much word (between prev and next) tells a reader who
// must act on the error: see the comment at the top.
func wordWeight(word, prev, next string, m Measure) float64 {
	bare := strings.Trim(word, wordPunct)
	switch {
	case bare == "":
		return 0
	case strings.Contains(bare, "…"):
		return 0.5 // a name shortened: what kind of object is said by the word before
	case strings.Contains(bare, "="):
		return 0.3 // a count or a field's value: detail
	case strings.HasSuffix(word, ":") && strings.Contains(next, "="):
		return 0.3 // the label of a count ("used: pods=0")
	}
	weight := 1.0
	switch {
	case len(bare) > 2 && bare[0] == '"' && bare[len(bare)-1] == '"' && !connectives[strings.ToLower(strings.Trim(prev, wordPunct))]:
		// A name the user can look up, after the word of its kind (webhook
		// "…", PodSecurity "…", deployments.apps "…"; `to "RuntimeDefault"`
		// is a value), worth its width: a long one is no less a name.
		weight = 2 + float64(m.Width(bare))/8
	case connectives[strings.ToLower(bare)]:
		weight = 0.2
	case strings.IndexFunc(bare, func(r rune) bool { return !unicode.IsDigit(r) }) < 0:
		weight = 0.5
	}
	if strings.HasSuffix(prev, ":") && weight >= 1 {
		weight++ // a clause's first word: where a wrapped error states its cause
	}
	return weight
}
