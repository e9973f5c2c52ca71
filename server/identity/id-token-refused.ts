// Why an ID token (or a provider sign-in) was refused: a sentence for the person, answered as a 400.
import { HttpError } from '../errors.ts';

export class IdTokenRefused extends HttpError {
  constructor(reason: string) {
    super(400, `Sign-in refused: ${reason}.`);
    this.name = 'IdTokenRefused';
  }
}
