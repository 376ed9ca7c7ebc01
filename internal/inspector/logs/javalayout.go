package logs

import (
	"bytes"
	"regexp"
	"strings"
)

// Java's logging layouts write a header between the time and the message
// that no Go logger writes: the logger as a dotted class name, its package
// abbreviated or not (Log4j's %c{1.} "i.j.o.p.e.EventProcessor", Quarkus'
// "[io.jav.ope.pro.eve.EventProcessor]"), the level as a word or in
// brackets padded to its column ("[WARN ]"), the thread in parentheses
// ("(ReconcilerExecutor-keycloakcontroller-977)"), in an order each layout
// chooses:
//
//	2025-07-18 06:24:24,708 i.j.o.p.e.EventProcessor       [WARN ][ns/x] msg
//	2025-11-06 05:44:30,932 ERROR [io.jav.ope.pro.eve.EventProcessor] (thread) msg
//
// javaHeader reads such a header at rest's start into f (the logger's class,
// the level) and returns the message after it. It reads one only when a
// class name is among its words: that is the layout's fingerprint, and a
// line without one is left as it was.

// javaClass is a Java class name as a layout writes its logger: lower-case
// package segments (whole or cut to a few letters) and the class,
// capitalised; or Log4j's location (%l) in its place, the class, the
// method and the file and line in parentheses:
// "[io.javaoperatorsdk.operator.processing.event.ReconciliationDispatcher.handleExecution(ReconciliationDispatcher.java:56)]"
// (batch24/2403).
var javaClass = regexp.MustCompile(`^[a-z][a-z0-9_]*(?:\.[a-z][a-z0-9_]*)*\.[A-Z][A-Za-z0-9_$]*(?:\.[a-z][A-Za-z0-9_$]*\([A-Za-z0-9_$]+\.java:\d+\))?$`)

// javaThread is a thread's name in parentheses: no space in it.
var javaThread = regexp.MustCompile(`^\([^()\s]+\)$`)

// javaHeader reads Java's layout header at rest's start (above); rest
// unchanged when it has none.
func javaHeader(rest []byte, f *fields) []byte {
	msg := rest
	class, level := "", []byte(nil)
	for range 4 {
		w, tok := firstWord(msg), []byte(nil)
		if len(msg) > 0 && msg[0] == '[' {
			e := bytes.IndexByte(msg, ']')
			if e < 0 {
				break
			}
			w, tok = msg[:e+1], bytes.TrimSpace(msg[1:e])
		} else {
			tok = w
		}
		switch {
		case len(tok) == 0:
		case level == nil && isLevel(bytes.ToUpper(tok)) && (class == "" || len(tok) < len(w)):
			// After the class a level is bracketed ("[WARN ]"): a bare
			// "Error" there is the message's first word.
			level = bytes.ToLower(tok)
		case class == "" && javaClass.Match(tok):
			class = string(tok)
		case class != "" && javaThread.Match(w):
		default:
			return javaMessage(rest, msg, class, level, f)
		}
		msg = bytes.TrimLeft(msg[len(w):], " \t")
	}
	return javaMessage(rest, msg, class, level, f)
}

// javaMessage is the message after a header read up to msg: rest (nothing
// read) when the header named no class.
func javaMessage(rest, msg []byte, class string, level []byte, f *fields) []byte {
	if class == "" || len(msg) == 0 {
		return rest
	}
	if f.logger == "" {
		if at := strings.IndexByte(class, '('); at >= 0 {
			// A location: its class is before the method.
			class = class[:strings.LastIndexByte(class[:at], '.')]
		}
		f.logger = class[strings.LastIndexByte(class, '.')+1:]
	}
	if level != nil {
		f.severe = f.severe || severeLevel(level)
		f.leveled = true
	}
	return msg
}
