package cli

import (
	"errors"
	"os/user"
	"testing"
)

// TestLocalUser: a forget records $USER, else the OS user, so that one run
// where $USER is unset (a container, cron) does not record "".
func TestLocalUser(t *testing.T) {
	env := func(v string) func(string) string { return func(string) string { return v } }
	os := func() (*user.User, error) { return &user.User{Username: "alice"}, nil }
	none := func() (*user.User, error) { return nil, errors.New("unknown userid 4242") }
	for _, c := range []struct {
		name, env string
		current   func() (*user.User, error)
		want      string
	}{
		{"$USER", "bob", os, "bob"},
		{"no $USER", "", os, "alice"},
		{"neither", "", none, ""},
	} {
		if got := localUser(env(c.env), c.current); got != c.want {
			t.Errorf("%s: localUser = %q, want %q", c.name, got, c.want)
		}
	}
	// The real OS user, as the plugin runs it with $USER unset.
	t.Setenv("USER", "")
	u, err := user.Current()
	if err != nil {
		t.Skipf("no OS user here: %v", err)
	}
	if got := (&attachOptions{addr: "127.0.0.1:8082"}).requester(); got != u.Username || got == "" {
		t.Errorf("requester() with $USER unset = %q, want the OS user %q", got, u.Username)
	}
}
