import { emailSchema } from '../../common/api/auth';

/** Spec §5: sign-up is enabled only for a well-formed email and two names that are not blank. */
export function canSignUp(form: { email: string; firstName: string; lastName: string }): boolean {
  return (
    emailSchema.safeParse(form.email).success && form.firstName.trim() !== '' && form.lastName.trim() !== ''
  );
}
