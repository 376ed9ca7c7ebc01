package why

import (
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
)

// RefusedError is a read the user may not make, said as the permission it
// needs and what the answer needed it for.
type RefusedError struct {
	Verb, Resource, Namespace string
	// For is what the read was for ("to find the pods of the status manager X").
	For string
}

// Error implements error: one line, no stack of wrapped API errors.
func (e *RefusedError) Error() string {
	where := "in namespace " + e.Namespace
	if e.Namespace == "" {
		where = "in all namespaces"
	}
	return fmt.Sprintf("you may not %s %s %s (RBAC): it was needed %s", e.Verb, e.Resource, where, e.For)
}

// Refused turns a Forbidden API error into a RefusedError; any other error
// is returned as it is.
func Refused(err error, verb, resource, namespace, what string) error {
	if !apierrors.IsForbidden(err) {
		return err
	}
	return &RefusedError{Verb: verb, Resource: resource, Namespace: namespace, For: what}
}
