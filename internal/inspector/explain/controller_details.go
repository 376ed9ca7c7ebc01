package explain

import (
	"fmt"
	"strings"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/text"
)

// detailGroups is how many error groups the full form lists.
const detailGroups = 5

// controllerDetails are the full form's lines: what the verdict rests on.
func controllerDetails(c api.Controller, groups []api.ErrorGroup) []string {
	var out []string
	var counts []string
	// unknown (log mode only) too, so that the counts add up to the keys.
	for _, s := range append(api.States[:len(api.States):len(api.States)], api.StateUnknown) {
		if n := c.Counts[s]; n > 0 {
			counts = append(counts, fmt.Sprintf("%d %s", n, s))
		}
	}
	keysLine := fmt.Sprintf("Keys: %d tracked", c.Keys)
	if len(counts) > 0 {
		keysLine += ": " + strings.Join(counts, ", ")
	}
	if c.QueueDepth != nil {
		keysLine += fmt.Sprintf("; queue depth %d", *c.QueueDepth)
	}
	out = append(out, keysLine)
	if l := limiterText(c.Limiter); l != "" {
		out = append(out, "Limiter: "+l)
	}
	if len(groups) > 0 {
		out = append(out, "Errors of the failing keys, largest first:")
		for _, g := range groups[:min(len(groups), detailGroups)] {
			line := "  " + keys(g.Count)
			if class := ErrorClassText(g.Class); class != "" {
				line += ", " + class
			}
			line += sinceClock(g.FirstSeen) + ": " + text.OneLine(g.Message, 0)
			if len(g.Examples) > 0 {
				line += " (e.g. " + strings.Join(g.Examples[:min(len(g.Examples), 3)], ", ") + ")"
			}
			out = append(out, line)
		}
		if rest := groups[min(len(groups), detailGroups):]; len(rest) > 0 {
			n := 0
			for _, g := range rest {
				n += g.Count
			}
			out = append(out, fmt.Sprintf("  … and %d more errors on %s", len(rest), keys(n)))
		}
	}
	if c.Pending > 0 {
		due := 0
		for _, n := range c.Forecast {
			due += n
		}
		line := fmt.Sprintf("%s to come: %s; %s in the next %ds", pendingWord(c.Counts), text.Thousands(c.Pending), text.Thousands(due), len(c.Forecast))
		if n, at := forecastPeak(c.Forecast); n > 0 {
			line += fmt.Sprintf(", at most %d a second (%s)", n, inSeconds(at))
		}
		out = append(out, line)
	}
	return out
}

// pendingWord names what is still to come: retries of failed reconciles
// (backoff), re-checks the reconciler asked for (scheduled: RequeueAfter),
// or both. A re-check is not a retry: nothing failed.
func pendingWord(counts map[api.State]int) string {
	switch retries, rechecks := counts[api.StateBackoff] > 0, counts[api.StateScheduled] > 0; {
	case rechecks && !retries:
		return "Re-checks"
	case rechecks && retries:
		return "Retries and re-checks"
	}
	return "Retries"
}

// limiterText is the limiter's description with the bucket's tokens now.
func limiterText(l api.Limiter) string {
	s := l.Description
	for i, p := range l.Components {
		if p.Name != api.SourceBucket || p.Tokens == nil {
			continue
		}
		if f, ok := readBucket(&l.Components[i]); ok && f.empty() {
			s += "; " + f.emptyText() // as the bucket-empty finding says it
		} else {
			s += fmt.Sprintf("; bucket holds %.1f of %d tokens", max(*p.Tokens, 0), p.Burst)
			if p.Estimated {
				s += " (estimated)"
			}
		}
	}
	return strings.TrimPrefix(s, "; ")
}
