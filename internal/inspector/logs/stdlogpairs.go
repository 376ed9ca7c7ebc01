package logs

// stdlogPairs reads what follows Go's standard log header when a logr
// sink writes it (go-logr/stdr, funcr's text over log.Logger: `2026/12/08
// 02:57:53.916760 "caller"={…} "msg"="Reconciler error" "error"="…"
// "namespace"="apps" "name"="cm-api"`): quoted keys, klogr's pairs without
// klog's header (klogPairs). stdr names no level: an Error record is the
// one with an "error" value (funcr writes it only there), so that is what
// makes it severe. rest opens with a quoted key and '=' (startsPair).
func stdlogPairs(rest []byte, f *fields) bool {
	if !klogPairs(rest, 0, f) {
		return false
	}
	f.severe = f.severe || f.err != ""
	return true
}
