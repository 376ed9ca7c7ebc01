package logs

import (
	"bytes"
	"fmt"
	"iter"
	"slices"
	"time"
)

// The generic reader reads a line by its words when they say the idiom
// (generic.go). A line that names one key and states an error, but whose
// words do not say it is a failed attempt (no retry or drop words, not
// opening with the failure, or at info level), is a candidate: the log's
// own structure decides. Candidates are grouped by template (template.go's
// miner), and per template and key their times are kept. A work queue's
// rate limiter leaves a fingerprint no other retry has: one key's attempts
// in one template, their gaps growing as the limiter's delays do — each
// about twice the one before (client-go's ItemExponentialFailureRateLimiter,
// 5ms·2^n to 1000s, which DefaultControllerRateLimiter max-es with a 10
// qps / burst 100 bucket, and controller-runtime v0.25's priority queue
// uses alone). A timed poll (RequeueAfter, "will try again in 5
// seconds", an informer's resync) leaves equal gaps: evidence against,
// which vetoes the template, because a false failing key is worse than a
// miss. So a template is read as failures when one of its keys shows the
// growing gaps and none shows equal ones; then every candidate of the
// template is a failure, its own and later ones, each saying why
// (Record.Evidence). A candidate no evidence decides is not read: a saved
// log's --explain-lines says so at its end.

// maxCandidateTimes bounds the times kept per template and key (the last
// ones), maxHeldCandidates the candidates held undecided in a store, and
// maxCandidateKeys the keys whose times are kept.
const (
	maxCandidateTimes = 64
	maxHeldCandidates = 1 << 12
	maxCandidateKeys  = 1 << 14
	// judgeWindow is how many of a key's last times a live read judges
	// as each line comes: the runs the line may end.
	judgeWindow = 2 * (growMin + 1)
)

// verdict is what a template's evidence decided.
type verdict uint8

const (
	undecided verdict = iota
	admitted
	vetoed
)

// candidates are the generic reader's candidate lines waiting for their
// template's evidence (Store.cands).
type candidates struct {
	miner  miner
	groups map[int]*candGroup
	// held counts the candidates held, keys the keys whose times are kept
	// over every template.
	held, keys int
	// end is a saved read's count of lines once it has ended
	// (finishCandidates), 0 before and in a live read: a candidate no
	// announcement followed before it was not retried (announced.go).
	end int
}

// candGroup is one template's candidates.
type candGroup struct {
	c       *tmplCluster
	keys    map[string]*candKey
	verdict verdict
	// why is the evidence that decided: for the records of an admitted
	// template, against for a vetoed one.
	why string
	// announced says how its handler announced a retry of a key on the
	// line after a candidate (announced.go); "" when it never did.
	announced string
}

// candKey is one key's candidates in a template.
type candKey struct {
	times []time.Time
	held  []heldCandidate
}

// heldCandidate is a candidate record with its line and its time's marks.
type heldCandidate struct {
	r    Record
	line int
	d    readMarks
	// example is the line, when it holds a dialect's failure marker: a
	// line refused is then counted as unreadable (LogRead), as parse
	// counts one.
	example []byte
	// announced says its handler announced the key's retry on a line
	// after it (announced.go).
	announced bool
}

// add takes candidate r, read from line, in; it returns the candidates to
// apply now as failures (their template admitted), in the log's order, and
// those whose template was vetoed, not to be read.
//
// A saved log's candidates wait for its end (wait): the whole log's evidence
// decides, in any order of its lines; a live log's as soon as a key's
// times do, and past maxHeldCandidates a saved log's too.
func (cs *candidates) add(h heldCandidate, wait bool) (apply, refuse []heldCandidate) {
	r := h.r
	c := cs.miner.add(r.Template)
	if cs.groups == nil {
		cs.groups = map[int]*candGroup{}
	}
	g := cs.groups[c.id]
	if g == nil {
		if len(cs.groups) >= maxClusters {
			return nil, []heldCandidate{h}
		}
		g = &candGroup{c: c, keys: map[string]*candKey{}}
		cs.groups[c.id] = g
	}
	k := g.keys[r.Key()]
	if k == nil {
		if cs.keys >= maxCandidateKeys {
			// Memory stays bounded: a key past the bound is not judged.
			return nil, []heldCandidate{h}
		}
		cs.keys++
		k = &candKey{}
		g.keys[r.Key()] = k
	}
	if !r.At.IsZero() {
		i, _ := slices.BinarySearchFunc(k.times, r.At, time.Time.Compare)
		k.times = slices.Insert(k.times, i+countEqual(k.times[i:], r.At), r.At)
		if len(k.times) > maxCandidateTimes {
			k.times = slices.Delete(k.times, 0, 1)
		}
	}
	switch g.verdict {
	case admitted:
		return []heldCandidate{g.admit(h)}, nil
	case vetoed:
		return nil, []heldCandidate{g.refuse(h)}
	}
	if cs.held < maxHeldCandidates {
		k.held = append(k.held, h)
		cs.held++
		if wait {
			return nil, nil
		}
	}
	g.judge(r.Key())
	return g.decided(cs)
}

// decided hands g's held candidates out once its verdict is in: to apply
// or to refuse, in the log's order.
func (g *candGroup) decided(cs *candidates) (apply, refuse []heldCandidate) {
	if g.verdict == undecided {
		return nil, nil
	}
	var out []heldCandidate
	for _, k := range g.keys {
		out = append(out, k.held...)
		cs.held -= len(k.held)
		k.held = nil
	}
	slices.SortFunc(out, func(a, b heldCandidate) int { return a.line - b.line })
	for i := range out {
		if g.verdict == admitted {
			dropped := g.notRetried(&out[i], cs.end)
			out[i] = g.admit(out[i])
			if dropped {
				out[i].r.GaveUp = true
				out[i].r.Evidence += "; and no retry was announced after it, as " + g.announced + ": not retried"
			}
		} else {
			out[i] = g.refuse(out[i])
		}
	}
	if g.verdict == admitted {
		return out, nil
	}
	return nil, out
}

// countEqual counts the times at the start of ts equal to t: a time of one
// already there goes after them.
func countEqual(ts []time.Time, t time.Time) int {
	n := 0
	for n < len(ts) && ts[n].Equal(t) {
		n++
	}
	return n
}

// admit makes h a failure of its admitted template.
func (g *candGroup) admit(h heldCandidate) heldCandidate {
	h.r.Candidate, h.r.NotRead, h.r.Tried = false, "", ""
	h.r.Evidence = g.why
	return h
}

// refuse says why h is not read: its words, and the evidence against.
func (g *candGroup) refuse(h heldCandidate) heldCandidate {
	h.r.NotRead += "; and " + g.why
	return h
}

// judge decides the template's verdict from its keys' times, key the one
// just added to ("" for any): equal gaps of any key veto it, growing gaps
// admit it.
func (g *candGroup) judge(key string) {
	for k, ts := range g.judged(key) {
		if every, ok := equalGaps(ts); ok {
			g.verdict = vetoed
			g.why = fmt.Sprintf("its template %q comes for %s every %v, equal gaps: a timed poll, not a rate limiter's backoff",
				g.c.String(), k, every.Round(time.Millisecond))
			return
		}
	}
	for k, ts := range g.judged(key) {
		if gaps, ok := growingGaps(ts); ok {
			g.verdict = admitted
			g.why = fmt.Sprintf("growing gaps: its template %q comes for %s after %s, each about twice the last, as a work queue's rate limiter retries a failing key",
				g.c.String(), k, joinGaps(gaps))
			return
		}
	}
	if g.announced != "" {
		g.verdict, g.why = admitted, g.announced
	}
}

// judged yields the keys judge reads and the times it reads of each: on a
// saved log (key "") every key and all its times; on a live read only key,
// the one its line added to (each line costs one key's times, not the
// template's), and only its last judgeWindow times (each line judged as it
// comes: the runs it may end).
func (g *candGroup) judged(key string) iter.Seq2[string, []time.Time] {
	return func(yield func(string, []time.Time) bool) {
		for k, ck := range g.keys {
			if key != "" && k != key {
				continue
			}
			ts := ck.times
			if key != "" && len(ts) > judgeWindow {
				ts = ts[len(ts)-judgeWindow:]
			}
			if !yield(k, ts) {
				return
			}
		}
	}
}

// judgeAll decides every template still undecided on the whole log's
// evidence (a saved log has ended), and hands out what it decided.
func (cs *candidates) judgeAll() (apply, refuse []heldCandidate) {
	ids := make([]int, 0, len(cs.groups))
	for id := range cs.groups {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		g := cs.groups[id]
		if g.verdict != undecided {
			continue
		}
		g.judge("")
		a, r := g.decided(cs)
		apply, refuse = append(apply, a...), append(refuse, r...)
	}
	return apply, refuse
}

// candidate takes a candidate record r of the log's line line in (apply):
// it waits for its template's evidence, or is applied, or refused, now.
func (s *Store) candidate(r Record, line int, d readMarks, example []byte) {
	s.mu.Lock()
	if r.NotRead == insideReconcile {
		// Its error is the attempt's when controller-runtime's warning
		// of the key follows with no "Reconciler error" (innercause.go).
		s.causeLocked(r)
	}
	apply, refuse := s.cands.add(heldCandidate{r: r, line: line, d: d, example: example}, s.holding())
	s.mu.Unlock()
	s.decided(apply, refuse)
}

// decided applies the candidates of admitted templates as failures, and
// says, for --explain-lines, why the refused ones were not read.
func (s *Store) decided(apply, refuse []heldCandidate) {
	for _, h := range apply {
		s.diag.record(h.r.Dialect, h.d)
		if s.holding() {
			s.holdDecided(h.r, h.line, h.d.implausible)
		} else {
			s.applyRecord(h.r, h.line, h.d.implausible)
		}
	}
	for _, h := range refuse {
		if h.example != nil {
			s.diag.failed(h.example, h.line)
		}
		if s.opts.ExplainLines != nil {
			s.explain(LineReading{Line: h.line, Meaning: notReadMeaning, Why: h.r.NotRead, Tried: h.r.Tried})
		}
	}
}

// finishCandidates decides a saved log's candidates on the whole log's
// evidence, and refuses those nothing decided: the log has ended.
func (s *Store) finishCandidates() {
	s.mu.Lock()
	s.cands.end = int(s.lines.Load())
	apply, refuse := s.cands.judgeAll()
	again, undecided := s.sameErrorAgain(s.cands.undecided())
	apply, refuse = append(apply, again...), append(refuse, undecided...)
	s.mu.Unlock()
	slices.SortFunc(apply, func(a, b heldCandidate) int { return a.line - b.line })
	s.decided(apply, refuse)
}

// undecided hands the candidates still held to refuse: the log has
// ended and nothing decided their templates. Called with s.mu held.
func (cs *candidates) undecided() []heldCandidate {
	var out []heldCandidate
	for _, g := range cs.groups {
		for k, ck := range g.keys {
			for _, h := range ck.held {
				h.r.NotRead += fmt.Sprintf("; and nothing in the log's structure says it is a failed attempt: its template %q comes %s for %s",
					g.c.String(), times(len(ck.times)), k)
				out = append(out, h)
			}
			ck.held = nil
		}
	}
	cs.held = 0
	slices.SortFunc(out, func(a, b heldCandidate) int { return a.line - b.line })
	return out
}

// times says n times in words.
func times(n int) string {
	switch n {
	case 0:
		return "at no time read"
	case 1:
		return "once"
	}
	return fmt.Sprintf("%d times, its gaps neither growing as a limiter's nor equal", n)
}

// orElse is s, or else when s is empty.
func orElse(s, elseS string) string {
	if s != "" {
		return s
	}
	return elseS
}

// unreadableExample is a copy of line when it holds a dialect's failure
// marker (parse would count it unreadable), else nil.
func unreadableExample(line []byte) []byte {
	for _, m := range failMarkers {
		if bytes.Contains(line, []byte(m)) {
			return bytes.Clone(line[:min(len(line), maxExampleBytes)])
		}
	}
	return nil
}

// candidateAside sets a generic candidate parse read aside in cand, so
// that the line's other formats are tried for a record first; it returns
// ok for a record that is not a candidate.
func candidateAside(r *Record, ok bool, cand *Record) bool {
	if ok && r.Candidate {
		if !cand.Candidate {
			*cand = *r
		}
		*r = Record{NotRead: r.NotRead, Tried: r.Tried}
		return false
	}
	return ok
}
