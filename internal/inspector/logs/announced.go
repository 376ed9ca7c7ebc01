package logs

import (
	"fmt"
	"strings"
	"time"
)

// Some workers say each retry on a line of its own, right after the
// failure, naming the key as the failure does and at info level: kwok's
// stage workers log `failed to apply stage` (ERROR, err, pod or node), then
// `retrying for failed job` (INFO, the same pod or node, retry=N) only
// when the step is to be redone (playStageWorker: shouldRetry's 503, 429,
// timeouts); any other error is logged once and the job dropped. The
// failure line's words say no retry (it is a candidate: evidence.go), and a
// failure retried once shows no gaps to judge. Its announcement says both
// things at once:
//
//   - the candidate is a failed attempt (its template is admitted): its
//     handler said it will retry that key, on the line after;
//   - the worker says each retry it makes, so a failure of the same
//     template that no announcement follows, while the log goes on, was
//     not retried: dropped (Record.GaveUp), failed until its object
//     changes (batch23/709's seventh failure, NotFound after six 429s).
//
// An announcement is a line that opens with the retry word ("retrying",
// "Retry"; a requeue word is not looked for: retryMarker), states no
// error, is at info or debug level, names one key
// as the failure lines do (a key, object or kind-named field), and comes
// within attemptWindow after a candidate of that key, later in the log.
// A live read admits the template when its announcement comes, but marks
// no drop: it cannot wait for a line that may never come.

// retryMarker is in every announcement ("retrying", "Retrying"): lines
// without it are not parsed again.
var retryMarker = []byte("etry")

// noteAnnouncedRetry reads line, which parse read as no record and which
// holds retryMarker (lineHints.retry, found by a parallel read's workers),
// as a retry announcement for a candidate held before it (saved or live).
// Only the goroutine that applies lines in order calls it.
func (s *Store) noteAnnouncedRetry(line []byte, n int, ref parseRef) {
	s.mu.Lock()
	held := s.cands.held
	s.mu.Unlock()
	if held == 0 {
		return
	}
	f := beforeFields(line, ref)
	if f.severe || f.err != "" || f.at.IsZero() || f.msg == "" {
		return
	}
	msg := f.msg
	retry := retryPhrase.FindStringIndex(msg)
	if retry == nil || retry[0] != opening(msg) || failPhrase.MatchString(msg) || dropPhrase.MatchString(msg) {
		return
	}
	var r Record
	switch ns, name, byField := f.fieldKey(); {
	case byField:
		r.Namespace, r.Name = ns, name
	case f.soleKeyField() != "":
		r.Namespace, r.Name = splitRef(f.soleKeyField())
	default:
		return
	}
	if r.Name == "" {
		return
	}
	s.mu.Lock()
	apply, refuse := s.cands.announced(r.Key(), f.at, n, strings.TrimSpace(msg), !s.holding())
	s.mu.Unlock()
	s.decided(apply, refuse)
}

// announced marks the candidate of key held last before line n, within
// attemptWindow before at, as its handler's announced retry, and its
// template as one whose retries are announced; a live read's template is
// admitted at once, and its held candidates handed out to apply. Called
// with Store.mu held.
func (cs *candidates) announced(key string, at time.Time, n int, msg string, live bool) (apply, refuse []heldCandidate) {
	var best *heldCandidate
	var group *candGroup
	for _, g := range cs.groups {
		k := g.keys[key]
		if k == nil {
			continue
		}
		for i := range k.held {
			h := &k.held[i]
			if d := at.Sub(h.r.At); h.line >= n || h.r.At.IsZero() || d < 0 || d > attemptWindow {
				continue
			}
			if best == nil || h.line > best.line {
				best, group = h, g
			}
		}
	}
	if best == nil || best.announced {
		return nil, nil
	}
	best.announced = true
	if group.announced == "" {
		group.announced = fmt.Sprintf("its handler says it will retry the key on the line after it (%q, naming %s, at info level)", msg, key)
	}
	if live && group.verdict == undecided {
		group.verdict, group.why = admitted, group.announced
		return group.decided(cs)
	}
	return nil, nil
}

// notRetried says whether h, of a template whose handler announces its
// retries, was followed by none while the log went on (a saved read's end
// known: cs.end, its count of lines): dropped.
func (g *candGroup) notRetried(h *heldCandidate, end int) bool {
	return g.announced != "" && !h.announced && end > 0 && h.line < end && h.r.Key() != ""
}
