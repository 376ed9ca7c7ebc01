package api

import (
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// ErrorGroupList is the v1/errors response: the matched keys' last errors,
// grouped by fingerprint, largest group first.
type ErrorGroupList struct {
	// ServerTime and Age are as in KeyList.
	ServerTime time.Time       `json:"serverTime"`
	Age        metav1.Duration `json:"age"`
	// Total is how many keys the selected controllers track; Matched how many
	// pass the state filter and have an error. The groups' counts add up to
	// Matched.
	Total   int          `json:"total"`
	Matched int          `json:"matched"`
	Groups  []ErrorGroup `json:"groups"`
}

// ErrorGroup is the keys of one controller whose last error has one
// fingerprint: the message with numbers, addresses, ids and quoted names
// folded, so "pod \"a-1\" not found" and "pod \"b-7\" not found" group.
type ErrorGroup struct {
	Controller  string `json:"controller"`
	Fingerprint string `json:"fingerprint"`
	// Message is one real message of the group, as recorded.
	Message string `json:"message"`
	Class   string `json:"class,omitempty"`
	// Count is the exact number of keys in the group.
	Count int `json:"count"`
	// FirstSeen is when the oldest failure streak among the group's keys
	// began (their firstFailureAt; the error's time for a key with none);
	// LastSeen is the newest time one of them recorded this error.
	FirstSeen time.Time `json:"firstSeen"`
	LastSeen  time.Time `json:"lastSeen"`
	// Examples names a few of the group's keys, the first in key order.
	Examples []string `json:"examples"`
}

// ErrorResponse is the one error shape every endpoint returns.
type ErrorResponse struct {
	Error ErrorBody `json:"error"`
}

// ErrorBody carries the status code, a Kubernetes-style reason and a message
// naming the problem. Field names the query parameter or body field at
// fault, as a Kubernetes Status names details.causes[].field: every 400
// carries one, so a client maps it to its own flag without reading Message.
type ErrorBody struct {
	Code   int    `json:"code"`
	Reason string `json:"reason"`
	Field  string `json:"field,omitempty"`
	// Value, when one value of Field was refused, is that value as sent
	// (a state of --state's list): what a client decides on, never the
	// message's words.
	Value   string `json:"value,omitempty"`
	Message string `json:"message"`
}
