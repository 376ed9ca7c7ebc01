package logs

import "strconv"

// A line may state how many times its key failed before ("failed 3
// times", a failures field): that count, and the line saying only that.

// statedFailures is the count of earlier failures a line states, in its
// message or a failures field.
func (f *fields) statedFailures(msg string) (int, bool) {
	v := f.failures
	if m := statedFailures.FindStringSubmatch(msg); m != nil {
		v = m[1]
	}
	n, err := strconv.Atoi(v)
	return n, err == nil && n >= 0
}

// countLine reads a line that says it will retry a key and how many times
// it failed, but not the error (that is on the attempt's other line): a
// CountLine, whose count goes to the failure of the same attempt. It must
// be logged at error or warning level and name one key.
func (f *fields) countLine(msg string) (Record, bool) {
	n, ok := f.statedFailures(msg)
	if !ok || !f.severe {
		return Record{}, false
	}
	r := Record{What: CountLine, At: f.at, Dialect: genericName, Retries: n + 1}
	switch key, _, found := messageKey(msg); {
	case f.alt != "":
		r.Namespace, r.Name = splitKey(f.alt)
	case found:
		r.Namespace, r.Name = keyParts(key)
	default:
		return Record{}, false
	}
	if r.Name == "" {
		return Record{}, false
	}
	r.Controller = f.kcmController(f.genericController(msg, 0, -1), false)
	r.Message = strconv.Quote(statedFailures.FindString(msg))
	return r, true
}
