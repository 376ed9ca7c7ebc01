package view

import "strings"

// The g view's rows show a group's fingerprint, where the endpoint folded
// what its keys' errors differ in (api.FingerprintFold, "…"). A row cut to
// fit its column is cut with "…" too (widget.FitMessage, as every table
// cuts), so a fold is shown as what it stands for, read off the group's one
// real message: `dial tcp <address>: connect: connection refused`, `quota
// "<name>" exceeded by <number> objects`. kubectl's own placeholders read so
// (`<pod-name>`); "…" is left to mean a cut.

// foldNames are what ShowFolds writes for a fold, by what it folded.
const (
	foldNumber  = "<number>"
	foldAddress = "<address>"
	foldID      = "<id>"
	foldName    = "<name>"
	// foldVaries stands for a fold whose text the message does not show
	// (a message that is not the fingerprint's own).
	foldVaries = "<varies>"
)

// foldRarest is a lone fold's row: the group the endpoint merged its
// rarest errors into, past its bound on groups.
const foldRarest = "<the rarest errors, merged>"

// ShowFolds is fingerprint fp with each fold named by the text it folded in
// msg, one real message of the group; a fold msg does not line up with is
// foldVaries. A lone fold is foldRarest.
func ShowFolds(fp, msg string) string {
	parts := strings.Split(fp, fold)
	switch {
	case fp == fold:
		return foldRarest
	case len(parts) == 1:
		return fp
	}
	var b strings.Builder
	b.WriteString(parts[0])
	rest, ok := strings.CutPrefix(msg, parts[0])
	for i, next := range parts[1:] {
		span := ""
		if ok {
			var j int
			switch {
			case i == len(parts)-2:
				j = len(rest) - len(next) // the last part ends the message
				ok = j > 0 && rest[j:] == next
			case next == "":
				ok = false // two folds abut: where one ends is not known
			default:
				j = strings.Index(rest[min(1, len(rest)):], next) + 1 // a fold holds a character at least
				ok = j > 0
			}
			if ok {
				span, rest = rest[:j], rest[j:]
				rest = strings.TrimPrefix(rest, next)
			}
		}
		b.WriteString(foldWord(span, ok))
		b.WriteString(next)
	}
	return b.String()
}

// foldWord names a fold by the text span it folded.
func foldWord(span string, known bool) string {
	switch {
	case !known:
		return foldVaries
	case isAddress(span):
		return foldAddress
	case isID(span):
		return foldID
	case strings.Trim(span, "0123456789.,_") == "":
		return foldNumber
	}
	return foldName
}

// isAddress reports whether s is an IP address, with its port or not, as
// the fingerprint folds one: 10.0.0.7:443, [fd00::1]:443.
func isAddress(s string) bool {
	if strings.HasPrefix(s, "[") {
		return true
	}
	host, _, _ := strings.Cut(s, ":")
	return strings.Count(host, ".") == 3 && strings.Trim(host, "0123456789.") == ""
}

// isID reports whether s is a UUID or a hex id of 8 digits or more that is
// not all digits (a number).
func isID(s string) bool {
	if len(s) < 8 || strings.Trim(s, "0123456789") == "" {
		return false
	}
	return strings.Trim(s, "0123456789abcdefABCDEF-") == ""
}
