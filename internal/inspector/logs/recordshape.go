package logs

// recordShape says whether line opens with a record's own start, read
// byte by byte off its first bytes (every line of a log is asked): a time
// ("2006-01-02", ISO 8601 and RFC 3339 as zap, logrus and most loggers
// write it; "2006/01/02", Go's log), a klog header ("E0102 "), a JSON
// record ('{"'), an epoch's ten digits (zap's console "1.6e9" aside),
// logfmt (time=, level=, ts=: logrus' text, go-kit, slog's text) and
// logrus' terminal level ("ERRO[0001]"). A piece of a wrapped record or a
// stack trace's line opens none of them.
//
// A date's two separators are the same: no logger writes "2006-01/02".
// A line shorter than four bytes is no record's start: the shortest record
// of these shapes ("ts=1", '{"a":1}') is longer, and a piece of a wrapped
// one is often that short ('{"', "ts=" cut at the terminal's edge).
//
// This is the one reading of a record's start: the terminal's wrap
// (termWrap), klog's continuation lines (klogCont) and the width wrap
// (widthWrap, which adds a collector's brackets: joinStart) all ask it.
func recordShape(line []byte) bool {
	if len(line) < 4 {
		return false
	}
	switch c := line[0]; {
	case c == '{':
		return line[1] == '"'
	case c >= '0' && c <= '9':
		// 2006-01-02, 2006/01/02, an epoch's ten digits.
		if len(line) >= 10 && digits(line[:4]) && (line[4] == '-' || line[4] == '/') &&
			line[7] == line[4] && digits(line[5:7]) && digits(line[8:10]) {
			return true
		}
		return len(line) >= 10 && digits(line[:10])
	case c >= 'A' && c <= 'Z':
		// klog's "E0102 ", logrus' terminal "ERRO[".
		if len(line) > 5 && line[5] == ' ' && (c == 'I' || c == 'W' || c == 'E' || c == 'F') && digits(line[1:5]) {
			return true
		}
		return len(line) > 4 && line[4] == '[' && upper(line[1]) && upper(line[2]) && upper(line[3])
	}
	return hasPrefix(line, "time=") || hasPrefix(line, "level=") || hasPrefix(line, "ts=")
}

// joinStart is recordShape, or kubectl --prefix's "[pod/" or a bracketed
// time ("[2021-…", "[12:00:01]"): what the width wrap reads as a start. The
// terminal's wrap does not: a piece of a zap console record cut inside its
// JSON object may open with '[' and a digit (an array of numbers), where
// a width-wrapped log's piece is checked by its width besides.
func joinStart(line []byte) bool {
	if recordShape(line) {
		return true
	}
	return len(line) >= 4 && line[0] == '[' && (hasPrefix(line, "[pod/") || (line[1] >= '0' && line[1] <= '9'))
}

// upper says whether c is an ASCII capital.
func upper(c byte) bool { return c >= 'A' && c <= 'Z' }

// hasPrefix is bytes.HasPrefix for a constant prefix, without its
// conversion.
func hasPrefix(line []byte, p string) bool {
	return len(line) >= len(p) && string(line[:len(p)]) == p
}
