-- Homepage bookmarks live in users.homepage_links and orgs.homepage_links, which the spec reads as the User's and
-- the Org's homepageLinks and PATCH /users/{id}/bookmarks and PATCH /orgs/bookmarks write whole; this table was
-- never written.
DROP TABLE "bookmarks" CASCADE;
