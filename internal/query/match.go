package query

import (
	"errors"
	"fmt"
	"regexp"
	"regexp/syntax"
	"strings"
	"time"
	"unsafe"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// Filter bounds. A request's matching cost is the bytes it reads times, for
// a regular expression, the work per byte of its program. These bound both;
// and matching runs on copies taken outside every shard lock, with the
// request's context checked as it goes, so the controller never waits on it.
const (
	// MaxQueryLen bounds q.
	MaxQueryLen = 1024
	// maxRegexInsts bounds a regular expression's compiled program: a
	// counted repetition is compiled as that many copies (.{0,1000} is
	// 2,000 instructions), which the pattern's length does not show.
	maxRegexInsts = 2000
	// maxRegexCost bounds a regular expression's estimated cost per byte
	// read (see regexCost), in nanoseconds on a 2020s core: each branch point
	// (|, ?, *, +, {n,m}) can keep a thread alive on every byte, and each
	// group adds a capture to every live thread. Literal text is nearly free.
	maxRegexCost = 300
	// regexTime bounds the time one request spends in regular expressions:
	// the estimate above cannot tell a cheap program from a costly one of
	// the same shape on every text. Past it the request fails, saying so.
	regexTime = time.Second
	// regexClockEvery is how many regular expression matches run between
	// two reads of the clock.
	regexClockEvery = 16
	// MaxFoldQuery bounds a case-insensitive substring: it is searched in a
	// lowered copy (linear time), so this only bounds the copy's worst case.
	MaxFoldQuery = 256
	// memoMinLen is the shortest text whose match is remembered per request:
	// error messages are interned, so 10,000 keys failing alike share one
	// string and it is matched once.
	memoMinLen = 64
	// maxMemo bounds the remembered matches of one request.
	maxMemo = 4096
)

// Matcher is a parsed api.Filter: a text pattern over the key and its last
// error (q), another over the last error alone (error), and a set of states.
// It is the one definition of what a filter selects: the endpoint, the log
// and snapshot servers, the CLI's flag checks and the UI's filter line all
// build one. A Matcher is used by one goroutine: it keeps scratch space
// between calls, and its regular expression budget is one request's.
type Matcher struct {
	q, err pattern
	states map[api.State]bool
	// deadline ends the request's regular expression matching; overBudget
	// is set once it has passed (by the pattern named overParam), and every
	// match then fails. matches counts the matches run, to read the clock
	// only now and then.
	deadline   time.Time
	matches    int
	overBudget bool
	overParam  string

	lowered []byte // scratch for the case-folding path
}

// pattern is one text pattern: a substring (smart case: case-insensitive
// unless it has an upper-case letter) or, with a leading "~", a regular
// expression. The zero pattern matches everything.
type pattern struct {
	param string // the query parameter it came from, named in errors
	q     string
	fold  bool
	re    *regexp.Regexp
	memo  map[textID]bool // match results of long (interned) texts
}

func (p *pattern) any() bool { return p.re == nil && p.q == "" }

// textID names a string by where its bytes are: interned messages share them.
type textID struct {
	p *byte
	n int
}

func textIDOf(s string) textID { return textID{unsafe.StringData(s), len(s)} }

// NewMatcher validates f: its states must be of valid (api.States for the
// endpoint, LogStates for a log or a snapshot); a "~" regex must compile
// within the program bounds.
func NewMatcher(f api.Filter, valid []api.State) (*Matcher, error) {
	m := &Matcher{}
	var err error
	if m.q, err = newPattern("q", f.Q); err != nil {
		return nil, err
	}
	if m.err, err = newPattern("error", f.Error); err != nil {
		return nil, err
	}
	for _, s := range f.States {
		if err := checkState(s, valid); err != nil {
			return nil, err
		}
		if m.states == nil {
			m.states = make(map[api.State]bool, len(f.States))
		}
		m.states[s] = true
	}
	return m, nil
}

// newPattern validates expr, given as the query parameter param.
func newPattern(param, expr string) (pattern, error) {
	p := pattern{param: param}
	if len(expr) > MaxQueryLen {
		return p, Invalid(param, "longer than %d bytes", MaxQueryLen)
	}
	if rest, ok := strings.CutPrefix(expr, "~"); ok {
		re, err := compileBounded(param, rest)
		if err != nil {
			return p, err
		}
		p.re = re
	} else if expr != "" {
		p.q = expr
		p.fold = strings.ToLower(expr) == expr
		if p.fold && len(expr) > MaxFoldQuery {
			return p, Invalid(param, "a case-insensitive substring is at most %d bytes; this one is %d (add an upper-case letter to match case exactly)",
				MaxFoldQuery, len(expr))
		}
	}
	return p, nil
}

// compileBounded compiles expr as CompileRegexp does, its refusal a 400
// naming param.
func compileBounded(param, expr string) (*regexp.Regexp, error) {
	re, err := CompileRegexp(expr)
	if err != nil {
		return nil, Invalid(param, "%s", err)
	}
	return re, nil
}

// CompileRegexp compiles a regular expression a user gave (a filter, a
// dialect file's line) as regexp.Compile does, refusing a program over the
// bounds (maxRegexInsts, maxRegexCost) with an error that says which and
// what to do: the one bound on every user-supplied pattern's cost, which
// its length does not show ([^x]{1000} is 1,000 copies).
func CompileRegexp(expr string) (*regexp.Regexp, error) {
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return nil, badRegexp(expr, err)
	}
	prog, err := syntax.Compile(re.Simplify())
	if err != nil {
		return nil, badRegexp(expr, err)
	}
	if len(prog.Inst) > maxRegexInsts {
		return nil, fmt.Errorf("the regular expression compiles to %d instructions, over %d (a counted repetition such as {0,1000} is compiled as that many copies): use * or + instead, or a substring",
			len(prog.Inst), maxRegexInsts)
	}
	branches, groups, cost := regexCost(prog)
	if cost > maxRegexCost {
		return nil, fmt.Errorf("the regular expression has %d branch points (each |, ?, *, + and {n,m} adds some) and %d groups: too costly to run over every key; use fewer of them, (?:...) for groups, or a substring and a state filter",
			branches, groups)
	}
	compiled, err := regexp.Compile(expr)
	if err != nil {
		return nil, badRegexp(expr, err)
	}
	return compiled, nil
}

// badRegexp says why expr does not compile, in the user's words: what
// regexp/syntax says after its "error parsing regexp: ".
func badRegexp(expr string, err error) error {
	if se, ok := errors.AsType[*syntax.Error](err); ok {
		return fmt.Errorf("%q is not a regular expression: %s: `%s`", expr, se.Code, se.Expr)
	}
	return fmt.Errorf("%q is not a regular expression: %w", expr, err)
}

// regexCost estimates prog's cost per byte read, in nanoseconds, from its
// branch points and capture instructions: Go's matchers (backtracker and
// NFA) may step every live thread on every byte, and these are what make
// threads (measured: (.*){16}# reads 3 MB/s, a 100-instruction literal
// with three .* reads 20 MB/s).
func regexCost(prog *syntax.Prog) (branches, groups int, cost int64) {
	captures := 0
	for _, in := range prog.Inst {
		switch in.Op {
		case syntax.InstAlt, syntax.InstAltMatch:
			branches++
		case syntax.InstCapture:
			captures++
		}
	}
	return branches, captures/2 - 1, 10 + 25*int64(branches) + 3*int64(captures)
}

// Match reports whether a key in state st with last error lastErr passes.
func (m *Matcher) Match(key, lastErr string, st api.State) bool {
	if m.states != nil && !m.states[st] {
		return false
	}
	if !m.q.any() && !m.matchText(&m.q, key) && (lastErr == "" || !m.matchText(&m.q, lastErr)) {
		return false
	}
	return m.err.any() || (lastErr != "" && m.matchText(&m.err, lastErr))
}

// Err is nil until a regular expression ran out of the request's budget
// (regexTime): from then on every match fails, and Err says so, naming the
// parameter. A server checks it after its pass and answers it instead.
func (m *Matcher) Err() error {
	if !m.overBudget {
		return nil
	}
	return Invalid(m.overParam, "this regular expression took over %v over the keys tracked and their errors: use a substring, a simpler expression, or narrow with state", regexTime)
}

// matchText matches one text with p, remembering the answer for a long one.
func (m *Matcher) matchText(p *pattern, s string) bool {
	if len(s) < memoMinLen {
		return m.matchNow(p, s)
	}
	id := textIDOf(s)
	if got, ok := p.memo[id]; ok {
		return got
	}
	got := m.matchNow(p, s)
	if p.memo == nil {
		p.memo = make(map[textID]bool)
	}
	if len(p.memo) < maxMemo {
		p.memo[id] = got
	}
	return got
}

func (m *Matcher) matchNow(p *pattern, s string) bool {
	switch {
	case p.re != nil:
		if m.overBudget {
			return false
		}
		if m.matches++; m.matches%regexClockEvery == 1 {
			now := time.Now()
			if m.deadline.IsZero() {
				m.deadline = now.Add(regexTime)
			} else if now.After(m.deadline) {
				m.overBudget, m.overParam = true, p.param
				return false
			}
		}
		return p.re.MatchString(s)
	case p.fold:
		m.lowered = appendLower(m.lowered[:0], s)
		return strings.Contains(unsafe.String(unsafe.SliceData(m.lowered), len(m.lowered)), p.q)
	}
	return strings.Contains(s, p.q)
}

// appendLower appends s with ASCII upper case lowered.
func appendLower(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		dst = append(dst, c)
	}
	return dst
}

// CheckPattern says why a server would refuse expr as the text pattern
// param (q or error): what the UI's filter line and the CLI's flags check
// as the user types, so that what they accept is what the servers accept.
func CheckPattern(param, expr string) error {
	_, err := newPattern(param, expr)
	return err
}

// MatchText reports whether text passes expr as a q pattern does (smart
// case, or a "~" regular expression): for a list held by the client, such
// as the pod picker's. An invalid expr matches nothing; check it first with
// CheckPattern.
func MatchText(expr string) func(string) bool {
	p, err := newPattern("q", expr)
	if err != nil {
		return func(string) bool { return false }
	}
	return func(s string) bool {
		switch {
		case p.any():
			return true
		case p.re != nil:
			return p.re.MatchString(s) // a client's list is small: no budget
		case p.fold:
			return strings.Contains(string(appendLower(nil, s)), p.q)
		}
		return strings.Contains(s, p.q)
	}
}

// FilterError says why a server would refuse typed as q, in the words a
// person typing it reads: the engine's message without the parameter's
// name, which the filter line does not show.
func FilterError(typed string) error {
	err := CheckPattern("q", typed)
	if e, ok := errors.AsType[*Error](err); ok {
		return errors.New(e.Problem)
	}
	return err
}
