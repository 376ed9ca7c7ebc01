package cli

import (
	"os"
	"os/user"
)

// requester is who a forget says is asking: the kubeconfig's user for the
// context in use (--user and --context respected) when attaching through the
// API server, otherwise $USER, else the OS user (a container or a cron job
// runs without $USER, and a forget by "" says nothing). The endpoint records it marked unverified
// unless it authenticated the request itself (the metrics server's filter).
func (o *attachOptions) requester() string {
	if cf := o.configFlags; cf != nil && o.addr == "" {
		if cf.AuthInfoName != nil && *cf.AuthInfoName != "" {
			return *cf.AuthInfoName
		}
		if raw, err := cf.ToRawKubeConfigLoader().RawConfig(); err == nil {
			name := raw.CurrentContext
			if cf.Context != nil && *cf.Context != "" {
				name = *cf.Context
			}
			if c, ok := raw.Contexts[name]; ok && c.AuthInfo != "" {
				return c.AuthInfo
			}
		}
	}
	return localUser(os.Getenv, user.Current)
}

// localUser is $USER, else the name of the OS user running the plugin.
func localUser(getenv func(string) string, current func() (*user.User, error)) string {
	if u := getenv("USER"); u != "" {
		return u
	}
	if u, err := current(); err == nil {
		return u.Username
	}
	return ""
}
