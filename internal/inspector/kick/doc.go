// Package kick makes a controller reconcile an object now, where forget is
// impossible (a controller read from its log, or one without the queue
// decorator): it patches an annotation on the object, whose watch event puts
// the key on the queue.
//
//	k := &kick.Kicker{Mapper: mapper, Dynamic: dyn, Reviews: cs.AuthorizationV1().SelfSubjectAccessReviews()}
//	results, err := k.Kick(ctx, schema.GroupKind{Group: "example.com", Kind: "Widget"}, []string{"default/w1"})
//
// What it cannot do, and callers must say: the failure count is not reset
// (if the reconcile fails, the next retry waits the next, longer, delay), and
// a controller whose watch has a generation-changed predicate ignores
// annotation changes, so nothing happens.
package kick
