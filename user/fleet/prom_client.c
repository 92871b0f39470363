// SPDX-License-Identifier: GPL-2.0
/* prom_client.c: the Prometheus query API over libcurl, with a size cap and timeouts */
#include <curl/curl.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib/log.h"
#include "prom_answer.h"
#include "prom_client.h"

struct answer {
	char *buf;
	size_t len;
	bool too_big;
};

static size_t on_data(char *p, size_t size, size_t n, void *ctx)
{
	struct answer *a = ctx;
	size_t add = size * n;
	char *nb;

	if (a->len + add > PROM_MAX_ANSWER) {
		a->too_big = true;
		return 0;
	}
	nb = realloc(a->buf, a->len + add + 1);
	if (!nb)
		return 0;
	memcpy(nb + a->len, p, add);
	a->buf = nb;
	a->len += add;
	a->buf[a->len] = 0;
	return add;
}

int prom_query(const char *base, const char *query, json_object **result)
{
	struct answer a = { 0 };
	char errbuf[CURL_ERROR_SIZE] = "", *q, *url = NULL;
	CURLcode rc;
	long code = 0;
	CURL *c;
	int err = -ENOMEM;

	*result = NULL;
	c = curl_easy_init();
	if (!c)
		return -ENOMEM;
	q = curl_easy_escape(c, query, 0);
	if (!q || asprintf(&url, "%s%sapi/v1/query?query=%s", base,
			   base[strlen(base) - 1] == '/' ? "" : "/", q) < 0)
		goto out;
	curl_easy_setopt(c, CURLOPT_URL, url);
	curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_data);
	curl_easy_setopt(c, CURLOPT_WRITEDATA, &a);
	curl_easy_setopt(c, CURLOPT_ERRORBUFFER, errbuf);
	curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT, 10L);
	curl_easy_setopt(c, CURLOPT_TIMEOUT, (long)PROM_TIMEOUT_S);
	curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(c, CURLOPT_USERAGENT, "copyprof/" COPYPROF_VERSION);
	curl_easy_setopt(c, CURLOPT_ACCEPT_ENCODING, "");
	rc = curl_easy_perform(c);
	if (rc != CURLE_OK) {
		p_err("cannot query Prometheus at %s: %s%s", base,
		      errbuf[0] ? errbuf : curl_easy_strerror(rc),
		      a.too_big ? " (the answer is over 256 MiB: narrow "
				  "it with --selector)"
				: "");
		err = -EIO;
		goto out;
	}
	curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &code);
	err = prom_answer_parse(base, query, code, a.buf, a.len, result);
out:
	free(url);
	curl_free(q);
	free(a.buf);
	curl_easy_cleanup(c);
	return err;
}
