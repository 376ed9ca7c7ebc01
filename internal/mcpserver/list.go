package mcpserver

import (
	"encoding/json"

	"github.com/google/jsonschema-go/jsonschema"
)

// List is a tool's list of strings (states, keys) as a model sends it: an
// array, or often a bare string for a single value ("backoff"), which is
// taken as a one-element list rather than refused. A comma-separated
// string ("backoff,failed") stays one element: the state parser splits it,
// as the CLI's --state does.
type List []string

// UnmarshalJSON reads an array of strings, a string, or null.
func (l *List) UnmarshalJSON(b []byte) error {
	var one string
	if err := json.Unmarshal(b, &one); err == nil {
		*l = List{one}
		return nil
	}
	var many []string
	if err := json.Unmarshal(b, &many); err != nil {
		return err
	}
	*l = many
	return nil
}

// listSchema is List's input schema: the SDK validates the arguments
// against it before decoding, so the string form must be said here too.
var listSchema = &jsonschema.Schema{Types: []string{"null", "array", "string"}, Items: &jsonschema.Schema{Type: "string"},
	Description: "a list of strings, or one string for a single value"}
