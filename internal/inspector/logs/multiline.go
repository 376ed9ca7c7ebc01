package logs

import (
	"bytes"
	"strconv"
)

// klog writes a value with newlines (an errors.Join, a wrapped multi-line
// message) over several lines, and the key/values after it on the last:
//
//	E1130 08:52:36.906613 1 controller.go:497] "Reconciler error" err=<
//		first line
//		second line
//	 > controller="widget" namespace="default" name="w1"
//
// joiner puts such a record back on one line, the value quoted, so that
// Parse sees the controller and the key. Each physical line may carry the
// kubelet's timestamp: the first one's is kept.
type joiner struct {
	head []byte // the line up to "=<", while a value is open
	val  []byte
	// obj is a pretty-printed JSON record being put back on one line
	// (jq's output, a log store's export): from a line "{" to a line "}".
	obj []byte
	// wrap is a record hard-wrapped by a terminal being put back on one
	// line (termwrap.go).
	wrap termWrap
	// hard is a record of any format hard-wrapped at the log's evidenced
	// width being put back on one line (widthwrap.go).
	wrapped widthWrap
	// ahead is the input buffered after the line fed: the lines the
	// evidence of a wrap is read from.
	ahead []byte
	// lcont is a logfmt record cut inside a quoted value, its pieces on
	// the lines after it (logfmtcont.go).
	lcont logfmtCont
	// cont is a structured klog record cut at a space, its key/values on
	// the lines after it (klogcont.go).
	cont klogCont
	// exc is a Java layout's record whose exception is on the next line
	// (exceptioncont.go).
	exc excCont
	// mel is a .NET console record, its message and exception on the
	// lines after its header (melconsole.go).
	mel melCont
}

// maxObjectBytes bounds a pretty-printed JSON record: past it, the lines
// are given as they are.
const maxObjectBytes = 64 << 10

// feed takes one line and calls emit with each complete logical line.
func (j *joiner) feed(line []byte, emit func([]byte)) {
	// A quoted paste's pieces are read out of the quote (quoteOff).
	trimmed := quoteOff(trimEOL(line))
	j.wrapped.fed()
	if j.wrapped.rec != nil {
		// release handed the record out already when line is no piece.
		if j.wrapped.next(trimmed) {
			emit(j.wrapped.take())
		}
		return
	}
	if j.wrap.rec != nil {
		// release handed the record out already when line is no piece.
		if j.wrap.next(trimmed) {
			emit(j.wrap.take())
		}
		return
	}
	if j.lcont.rec != nil {
		// release handed the record out already when line is no piece.
		if j.lcont.next(trimmed) {
			emit(j.lcont.take())
		}
		return
	}
	if j.cont.rec != nil {
		// release handed the record out already when line is no piece.
		if j.cont.next(trimmed) {
			emit(j.cont.take())
		}
		return
	}
	if j.exc.rec != nil {
		// release handed the record out already when line is no piece.
		if j.exc.next(trimmed) {
			emit(j.exc.take())
		}
		return
	}
	if j.mel.rec != nil {
		// release handed the record out already when line is no piece.
		j.mel.next(trimmed)
		return
	}
	if j.obj != nil || string(trimBlanks(trimmed)) == "{" {
		j.object(trimmed, emit)
		return
	}
	if j.head != nil {
		_, body := kubeletTime(trimPodPrefix(trimmed))
		switch {
		case len(body) > 0 && body[0] == '\t':
			if len(j.val)+len(body) <= maxLineBytes {
				if len(j.val) > 0 {
					j.val = append(j.val, '\n')
				}
				j.val = append(j.val, body[1:]...)
			}
			return
		case bytes.HasPrefix(body, []byte(" >")):
			out := append(j.head, strconv.Quote(string(j.val))...)
			out = append(out, body[2:]...)
			j.head, j.val = nil, nil
			emit(out)
			return
		}
		// Not a continuation: the block was cut short. Emit what there is.
		head := j.head
		j.head, j.val = nil, nil
		emit(head)
	}
	if bytes.HasSuffix(trimmed, []byte("=<")) && bytes.Contains(trimmed, []byte("] \"")) {
		j.head = append([]byte(nil), trimmed[:len(trimmed)-1]...)
		return
	}
	// The next line's start, read once for the joiners that ask.
	opens := nextOpens(j.ahead)
	if j.wrapped.start(trimmed, j.ahead, opens) || j.wrap.start(trimmed) || j.lcont.start(trimmed, j.ahead, opens) || j.cont.start(trimmed) {
		return
	}
	// The next line out of its quote, as line is: a quoted Java record's
	// exception, a quoted .NET header's message ("> " before each line,
	// the paste damage markdown-quote) are read as unquoted ones.
	if next := quoteOff(j.ahead); j.exc.start(trimmed, next) || j.mel.start(trimmed, next) {
		return
	}
	emit(line)
}

// trimBlanks is line without the spaces and tabs at its end:
// bytes.TrimRight's answer, without building its set of two bytes on every
// line fed (a hundredth of BenchmarkRead1M's time).
func trimBlanks(line []byte) []byte {
	n := len(line)
	for n > 0 && (line[n-1] == ' ' || line[n-1] == '\t') {
		n--
	}
	return line[:n]
}

// object takes a line of a pretty-printed JSON record: a JSON string
// holds no raw newline, so its lines, their indentation dropped, are the
// record on one line. It ends at a line "}" (or "},", jq --slurp's);
// one that grows past maxObjectBytes is given as it is.
func (j *joiner) object(line []byte, emit func([]byte)) {
	j.obj = append(j.obj, bytes.TrimSpace(line)...)
	// A terminal's copy pads a line with spaces to its width.
	switch end := string(trimBlanks(line)); {
	case end == "}" || end == "},":
		out := bytes.TrimSuffix(j.obj, []byte(","))
		j.obj = nil
		emit(out)
	case len(j.obj) > maxObjectBytes:
		out := j.obj
		j.obj = nil
		emit(out)
	}
}

// release emits a wrapped record held open when line, the next one, is
// no piece of it: called before line is counted, so that the record is
// read as of its own last line.
func (j *joiner) release(line []byte, emit func([]byte)) {
	if j.wrap.rec != nil && !j.wrap.piece(quoteOff(trimEOL(line))) {
		emit(j.wrap.take())
	}
	if j.wrapped.rec != nil && !j.wrapped.piece(quoteOff(trimEOL(line))) {
		emit(j.wrapped.take())
	}
	if j.lcont.rec != nil && !j.lcont.piece(quoteOff(trimEOL(line))) {
		emit(j.lcont.take())
	}
	if j.cont.rec != nil && !j.cont.piece(quoteOff(bytes.TrimRight(line, "\r\n"))) {
		emit(j.cont.take())
	}
	if j.exc.rec != nil && !j.exc.piece(quoteOff(trimEOL(line))) {
		emit(j.exc.take())
	}
	if j.mel.rec != nil && !j.mel.piece(quoteOff(trimEOL(line))) {
		emit(j.mel.take())
	}
}

// flush emits a block left open at the end of the input.
func (j *joiner) flush(emit func([]byte)) {
	if j.head != nil {
		emit(j.head)
		j.head, j.val = nil, nil
	}
	if j.obj != nil {
		emit(j.obj)
		j.obj = nil
	}
	if j.wrap.rec != nil {
		emit(j.wrap.take())
	}
	if j.wrapped.rec != nil {
		emit(j.wrapped.take())
	}
	if j.lcont.rec != nil {
		emit(j.lcont.take())
	}
	if j.cont.rec != nil {
		emit(j.cont.take())
	}
	if j.exc.rec != nil {
		emit(j.exc.take())
	}
	if j.mel.rec != nil {
		emit(j.mel.take())
	}
}
