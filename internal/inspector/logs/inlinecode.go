package logs

import "bytes"

// inlineCode is the log record a paste quotes as Markdown inline code in
// a sentence of its own ("… the training operator got errors:
// `2022-02-28T09:49:55.707Z\tERROR\tReconcile PyTorchJob error\t{…}`.
// <br>", batch13/1302): the text between the first backtick and the next,
// when the line opens with no format of its own and that text opens with
// one (a time, a klog header, JSON, logfmt, logrus) and holds more than a
// word; else line as it is. A record that itself quotes a word in
// backticks opens with its format, and is left whole.
func inlineCode(line []byte) []byte {
	i := bytes.IndexByte(line, '`')
	if i < 0 {
		return line
	}
	code := line[i+1:]
	j := bytes.IndexByte(code, '`')
	if j < 0 {
		return line
	}
	code = code[:j]
	if bytes.IndexAny(code, " \t") < 0 {
		return line
	}
	if _, ok := detect(line); ok {
		return line
	}
	if fm, ok := detect(code); !ok || fm == fmtConsole && !looksLikeTime(firstWord(code)) {
		return line
	}
	return code
}
