package mcpserver

import (
	"reflect"

	"github.com/google/jsonschema-go/jsonschema"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/why"
)

// outputSchema is T's JSON schema as the wire says it: the SDK infers one
// from the Go type and checks every answer against it, and a
// metav1.Duration is a struct in Go but a string ("1m30s") on the wire.
// why's chain and blockers nest (a node's nodes, a blocker's answer): a
// schema cannot be inferred for a type that contains itself, so they are
// said as objects, described.
func outputSchema[T any]() *jsonschema.Schema {
	s, err := jsonschema.For[T](&jsonschema.ForOptions{TypeSchemas: typeSchemas()})
	if err != nil {
		panic(err) // a type of this package: a test lists every tool
	}
	return s
}

// inputSchema is T's JSON schema for a tool's arguments. The SDK infers
// one without typeSchemas, which would say a List as an array only and
// refuse the bare string List decodes; so the tools with a List give
// theirs.
func inputSchema[T any]() *jsonschema.Schema { return outputSchema[T]() }

// typeSchemas are the schemas inference would get wrong. The client's
// PodKey and PodKeyDetail embed api.Key, whose field Key the embedded
// field's own name hides from reflect.VisibleFields (encoding/json still
// writes it), so they are built from api.Key's with their own fields added.
func typeSchemas() map[reflect.Type]*jsonschema.Schema {
	base := map[reflect.Type]*jsonschema.Schema{
		reflect.TypeFor[metav1.Duration](): {Type: "string", Description: "a Go duration, e.g. 1m30s"},
		reflect.TypeFor[metav1.Time]():     {Type: "string", Description: "an RFC 3339 time"},
		reflect.TypeFor[List]():            listSchema,
		reflect.TypeFor[why.Node](): {Type: "object",
			Description: "an object of the chain: object, via (how its parent reaches it), status, line (why, in one line), blocker, below (its own nodes)"},
		reflect.TypeFor[[]*why.Answer](): {Types: []string{"null", "array"},
			Items: &jsonschema.Schema{Type: "object", Description: "the answer for a blocker, in this same shape"}},
	}
	key, err := jsonschema.For[api.Key](&jsonschema.ForOptions{TypeSchemas: base})
	if err != nil {
		panic(err)
	}
	podKey := key.CloneSchemas()
	podKey.Properties["pod"] = &jsonschema.Schema{Type: "string", Description: "the replica that reported the key (namespace/name)"}
	detail := podKey.CloneSchemas()
	detail.Properties["serverTime"] = &jsonschema.Schema{Type: "string"}
	detail.Required = append(detail.Required, "serverTime")
	base[reflect.TypeFor[inspector.PodKey]()] = podKey
	base[reflect.TypeFor[inspector.PodKeyDetail]()] = detail
	return base
}
