package logs

import (
	"strconv"
	"strings"
	"time"
)

// read reads msg as one of d's lines, with the line's fields f.
func (d *Dialect) read(msg string, f *fields, fm format) (Record, bool) {
	for i := range d.Lines {
		l := &d.Lines[i]
		r := Record{What: l.Means, At: f.at, Error: f.err, Terminal: l.Terminal, GaveUp: l.Dropped, Dialect: d.Name + " (" + formatNames[fm] + ")",
			Message: l.Text, Limiter: d.Limiter, LimiterOf: d.Name, ClientGoQueue: d.Limiter == Limiter{}}
		var key string
		switch {
		case l.Regexp != nil:
			m := l.Regexp.FindStringSubmatch(msg)
			if m == nil {
				continue
			}
			r.Message = l.Regexp.String()
			group := func(name string) string {
				if i := l.Regexp.SubexpIndex(name); i > 0 {
					return m[i]
				}
				return ""
			}
			key = group("key")
			if e := group("error"); e != "" {
				r.Error = e
			}
			if c := group("count"); c != "" {
				r.Retries, _ = strconv.Atoi(c)
			}
			if s := group("retry"); s != "" {
				dur, err := time.ParseDuration(s)
				if err != nil || dur <= 0 {
					continue
				}
				if r.What == RequeueAfterLine {
					r.RequeueAfter = dur
				} else {
					r.RetryIn, r.RetryWords = dur, statedWordsOf(msg, s)
				}
			}
		case msg == l.Text || l.Prefix && strings.HasPrefix(msg, l.Text):
		default:
			continue
		}
		switch {
		case key != "":
			r.Namespace, r.Name = splitKey(key)
		case f.alt != "":
			r.Namespace, r.Name = splitKey(f.alt)
		case f.ref != "":
			r.Namespace, r.Name = splitRef(f.ref)
		default:
			r.Namespace, r.Name = f.namespace, f.name
		}
		r.Controller = d.Controller
		if r.Controller == "" {
			r.Controller = f.controller
		}
		if r.Controller == "" {
			r.Controller = f.logger
		}
		if r.Controller == "" && len(f.caller) > 0 {
			r.Controller = string(f.caller)
		}
		if r.Controller == "" {
			// Nothing names it: the dialect's own name does, rather than
			// dropping every line of a dialect written without controller:.
			r.Controller = d.Name
		}
		if r.Name == "" {
			return Record{NotRead: "matches dialect " + strconv.Quote(d.Name) + "'s line " + strconv.Quote(r.Message) +
				" but names no key: no key group, and no key, request, object or name field"}, false
		}
		return r, true
	}
	return Record{}, false
}
