-- document_chunks.search is written by the search indexer (one tokenisation for the column, the BM25 length and
-- the term statistics); any other writer, and a body change that does not write it, gets it derived here.
CREATE FUNCTION document_chunks_derive_search() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.search IS NULL OR (TG_OP = 'UPDATE' AND NEW.body IS DISTINCT FROM OLD.body
      AND NEW.search IS NOT DISTINCT FROM OLD.search) THEN
    NEW.search := to_tsvector('english'::regconfig, NEW.body);
  END IF;
  RETURN NEW;
END;
$$;--> statement-breakpoint
CREATE TRIGGER document_chunks_derive_search BEFORE INSERT OR UPDATE ON document_chunks
  FOR EACH ROW EXECUTE FUNCTION document_chunks_derive_search();
