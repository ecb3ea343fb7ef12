export { CheckboxField, Field, FormErrors, SelectField, type SelectOption } from './field';
export { describeField, type FieldDescription } from './field-description';
