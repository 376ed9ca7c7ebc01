package view

import "github.com/kubectl-backoff/kubectl-backoff/instrument/api"

// How a key's detail is opened, and the roles it takes on the root's stack
// (roles.go), over its typed methods: the root asks for them by interface,
// never by the view's name.

// OpenKey opens the detail view on controller's key, with its first read:
// what enter on a row asks of the root.
func OpenKey(c *Common, controller, key string) OpenIntent {
	d, cmd := Detail{C: c}.Open(controller, key)
	return OpenIntent{View: d, Cmd: cmd}
}

// Shows is the key as the detail view last read it when it is
// controller's key; nil otherwise (KeyShower).
func (d Detail) Shows(controller, key string) *api.Key {
	if d.Data == nil || d.Data.Key == nil {
		return nil
	}
	if k := &d.Data.Key.Key; k.Controller == controller && k.Key == key {
		return k
	}
	return nil
}

// Clamped keeps the scroll within the room left (Clamper).
func (d Detail) Clamped() View { d.Clamp(); return d }
