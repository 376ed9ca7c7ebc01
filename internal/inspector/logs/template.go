package logs

import (
	"net/netip"
	"strings"
)

// template is a message's shape: its words with the variable parts masked
// (keys, names, UIDs, numbers, durations, IPs, quoted strings: any word
// with a digit, a slash, a quote or a bracket), up to its error (the first
// ": ", after which the cause varies), as log-template miners such as
// Drain group lines. Two lines of one template are the same statement of
// the program; two of different templates naming one key at one moment are
// two statements of one attempt (attempt.go).
func template(msg string) string {
	if i := strings.Index(msg, ": "); i >= 0 {
		msg = msg[:i]
	}
	var b strings.Builder
	for w := range strings.FieldsSeq(msg) {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		if variableWord(w) {
			b.WriteString(maskToken)
			continue
		}
		b.WriteString(w)
	}
	return b.String()
}

// maskToken stands for a word that varies from line to line of a template.
const maskToken = "<*>"

// variableWord says w is a variable part by its own shape: a number, a
// duration, a key, a UID, an IP, a quoted or bracketed value, a field.
func variableWord(w string) bool {
	if strings.ContainsAny(w, "0123456789/'\"<>[]{}()=") {
		return true
	}
	// An IPv6 address without a digit ("fe::ab") is still an address.
	_, err := netip.ParseAddr(strings.Trim(w, ",;."))
	return err == nil
}

// A miner groups the templates of the lines it is given into clusters, as
// Drain does (He et al., 2017): a template is put in the cluster of its
// length whose words it shares most (at least minShare of them, its first
// word included: a message's verb rarely varies), and the words where the
// two differ become variable. So "failed to sync Widget <*>" and "failed to
// sync Gadget <*>" are one statement of one program, its kind a variable
// part the word masks of template could not see; "failed to sync <*>" and
// "finished syncing <*>" are two. It is small and cheap because it sees only
// the generic reader's candidate lines (evidence.go), never the whole log.
type miner struct {
	byLen map[int][]*tmplCluster
	n     int
}

// minShare is the share of a template's words a cluster must have in the
// same places for the template to join it (Drain's similarity threshold).
const minShare = 0.6

// maxClusters bounds a miner's memory: past it, a template that fits no
// cluster is given one that is not kept (its lines are not grouped).
const maxClusters = 4096

// tmplCluster is one mined template: its words, a variable part as maskToken.
type tmplCluster struct {
	id    int
	words []string
}

// String is the cluster's template.
func (c *tmplCluster) String() string { return strings.Join(c.words, " ") }

// add puts template t (template's output) in its cluster and returns it.
func (m *miner) add(t string) *tmplCluster {
	words := strings.Fields(t)
	if m.byLen == nil {
		m.byLen = map[int][]*tmplCluster{}
	}
	var best *tmplCluster
	bestShare := 0.0
	for _, c := range m.byLen[len(words)] {
		if s := share(c.words, words); s > bestShare {
			best, bestShare = c, s
		}
	}
	if best != nil && bestShare >= minShare {
		for i, w := range words {
			if best.words[i] != w {
				best.words[i] = maskToken
			}
		}
		return best
	}
	m.n++
	c := &tmplCluster{id: m.n, words: words}
	if m.n <= maxClusters {
		m.byLen[len(words)] = append(m.byLen[len(words)], c)
	}
	return c
}

// share is the share of a's words that b has in the same places, 0 when
// their first words differ (words of equal length).
func share(a, b []string) float64 {
	if len(a) == 0 {
		return 1
	}
	if a[0] != b[0] && a[0] != maskToken {
		return 0
	}
	same := 0
	for i := range a {
		if a[i] == b[i] {
			same++
		}
	}
	return float64(same) / float64(len(a))
}
