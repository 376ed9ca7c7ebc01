package cli

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/fleet"
	"github.com/kubectl-backoff/kubectl-backoff/internal/text"
)

// fleetHeader says what a read is: as of when, from which server, how many
// clusters answered (and that a warning may have left some out).
//
// Where the cluster came from is said: a series' label, the server's own
// external label (a Prometheus read directly does not add it to its
// answers), or nothing, with how to set it.
func fleetHeader(f *fleet.Fleet) string {
	by := fmt.Sprintf("by label %q", f.ClusterLabel)
	switch {
	case f.ClusterFrom == fleet.ClusterFromExternalLabels:
		by += ", from the server's external_labels"
	case len(f.Rows) > 0 && slices.Equal(f.Clusters, []string{""}):
		by = fmt.Sprintf("no series has label %q: set it in each cluster's Prometheus, global.external_labels, or name yours with --cluster-label", f.ClusterLabel)
	}
	s := fmt.Sprintf("as of %s from %s: %s in %s (%s), %s",
		f.At.Local().Format(time.TimeOnly), f.Server, text.Plural(len(f.Rows), "controller"),
		text.Plural(len(f.Clusters), "cluster"), by, text.Plural(f.Queries, "query"))
	if len(f.Warnings) > 0 {
		s += "; partial: " + text.Plural(len(f.Warnings), "warning")
	}
	return s
}

// printFleet prints rows as a table; wide adds the keys by state, the
// rate limiter's delays of the last hour and the worst key. Its heads are
// a kubectl user's words, not the wire's: MOST FAILS is the most
// consecutive failures of any key (FAILS as get counts them; maxFailures),
// AT MAX DELAY the keys waiting the limiter's longest delay (keysAtCap):
// "STREAK" and "AT CAP" were this project's jargon.
func printFleet(w io.Writer, rows []fleet.Row, wide bool) error {
	t := newTable(w)
	head := []string{"CLUSTER", "NAMESPACE", "CONTROLLER", "FAILING", "OLDEST FAILURE", "MOST FAILS", "AT MAX DELAY", "FORGETS 1D"}
	if wide {
		for _, st := range api.States {
			head = append(head, strings.ToUpper(string(st)))
		}
		head = append(head, "RETRIES 1H", "MEAN DELAY", "LONG", "WORST KEY")
	}
	fmt.Fprintln(t, strings.Join(head, "\t"))
	for i := range rows {
		fmt.Fprintln(t, strings.Join(fleetCells(&rows[i], wide), "\t"))
	}
	return t.Flush()
}

// fleetCells are a row's cells as the table prints them; "-" where the
// probe cannot know (keys at cap with a custom limiter).
func fleetCells(r *fleet.Row, wide bool) []string {
	atCap := "-"
	if r.KeysAtCap != nil {
		atCap = strconv.Itoa(*r.KeysAtCap)
	}
	cells := []string{orDash(r.Cluster), orDash(r.Namespace), r.Controller,
		fmt.Sprintf("%d/%d", r.Failing(), r.Total()), age(r.OldestFailureSeconds),
		strconv.Itoa(r.MaxFailures), atCap, strconv.Itoa(r.ForgetsLastDay)}
	if wide {
		for _, st := range api.States {
			cells = append(cells, strconv.Itoa(r.Keys[st]))
		}
		retries, mean, long := "-", "-", "-"
		if d := r.RetryDelays; d != nil {
			retries, mean, long = strconv.Itoa(d.Retries), age(d.MeanSeconds), strconv.Itoa(d.Long)
		}
		cells = append(cells, retries, mean, long)
		worst := "-"
		if len(r.WorstKeys) > 0 {
			k := r.WorstKeys[0]
			worst = fmt.Sprintf("%s (%s, %d failures)", k.Key, k.State, k.Failures)
		}
		cells = append(cells, worst)
	}
	return cells
}

// age is a failure's age in seconds as a duration; "-" for none.
func age(seconds float64) string {
	if seconds <= 0 || math.IsNaN(seconds) {
		return "-"
	}
	return text.FormatDuration(time.Duration(seconds * float64(time.Second)))
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
