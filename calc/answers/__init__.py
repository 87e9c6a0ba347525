"""What a calculator answers, as JSON-ready pieces: exact chances and distributions (`result`), one
attack (`per_attack`), the round's answer (`round_answer`) and its attack at hand (`first_attack`),
and numbers as the site writes them (`format`)."""
