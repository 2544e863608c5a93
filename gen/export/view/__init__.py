"""``alfred-gen view``: a static site to browse a dataset of demonstrations in a web browser.

The site reads from ``file://`` with no server: data is embedded in script files (browsers refuse
to fetch local JSON), frames are linked into the site, pages are plain HTML with one script each.
:mod:`.site` builds it, :mod:`.page` makes one trajectory's page data, :mod:`.serve` serves it for
``--serve PORT``; the HTML, CSS and JavaScript are the files under ``assets/``.
"""
