package mcpserver

import (
	"fmt"
	"reflect"
	"unicode/utf8"

	"github.com/kubectl-backoff/kubectl-backoff/internal/text"
)

// The caps on what one answer holds: a model's context is small and shared,
// and a controller can track 100,000 keys with 4 KiB errors each. What is
// left out is counted and said, with the input that asks for it.
const (
	// defaultKeys and maxKeys bound the keys tool's page.
	defaultKeys = 20
	maxKeys     = 100
	// maxGroups bounds the error groups an answer lists.
	maxGroups = 20
	// maxHistory bounds a key's attempts (the endpoint keeps 16).
	maxHistory = 16
	// maxMessage bounds every string in an answer: an error message, a
	// condition's, an event's. Keys and names are far shorter.
	maxMessage = 1000
	// maxExamples bounds an error group's example keys.
	maxExamples = 5
)

// capText is s escaped as every printer escapes text from a cluster or a
// log (text.Printable: controls, bidi overrides, invalid UTF-8), then cut to
// max runes with how much was cut.
func capText(s string, max int) string {
	s = text.Printable(s)
	if utf8.RuneCountInString(s) <= max {
		return s
	}
	r := []rune(s)
	return string(r[:max]) + fmt.Sprintf("… (%d more characters)", len(r)-max)
}

// bound escapes and caps every string reachable from v, in place: v is the
// answer's own copy (what the client returned, or built for this call).
// Structured output is read by models and by UIs that render it, so it
// gets the escape the text does; JSON's own escaping alone would let a
// bidi override or an ANSI sequence through to the screen.
func bound(v any) {
	walk(reflect.ValueOf(v))
}

func walk(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			walk(v.Elem())
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() { // what JSON carries
				walk(v.Field(i))
			}
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			walk(v.Index(i))
		}
	case reflect.Map:
		for _, k := range v.MapKeys() {
			e := v.MapIndex(k)
			if e.Kind() == reflect.String {
				v.SetMapIndex(k, reflect.ValueOf(capText(e.String(), maxMessage)).Convert(e.Type()))
				continue
			}
			c := reflect.New(e.Type()).Elem()
			c.Set(e)
			walk(c)
			v.SetMapIndex(k, c)
		}
	case reflect.String:
		if v.CanSet() {
			v.SetString(capText(v.String(), maxMessage))
		}
	}
}
