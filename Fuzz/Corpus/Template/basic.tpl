db: {{ vault://ci/db/admin }}
plain {{ not }} {{vault://svc/acct}}
